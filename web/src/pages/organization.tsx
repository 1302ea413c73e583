import { api } from '../api';
import { Async, type PageMeta, fmtDate, useLoad } from '../ui';

export const meta: PageMeta = { title: 'Organization', order: 35 };

export default function Organization() {
  const state = useLoad(() => api('get', '/api/dashboard/organization'), []);
  return (
    <>
      <h1>Organization</h1>
      <Async state={state}>
        {(o) => (
          <table>
            <tbody>
              <tr>
                <th scope="row">Name</th>
                <td>{o.name}</td>
              </tr>
              <tr>
                <th scope="row">Identifier</th>
                <td>
                  <code>{o.id}</code>
                </td>
              </tr>
              <tr>
                <th scope="row">Plan</th>
                <td>{o.plan}</td>
              </tr>
              <tr>
                <th scope="row">Products</th>
                <td>{o.products.join(', ') || '—'}</td>
              </tr>
              <tr>
                <th scope="row">Quota renews on day</th>
                <td>{o.renewalDay}</td>
              </tr>
              <tr>
                <th scope="row">Created</th>
                <td>{fmtDate(o.createdAt)}</td>
              </tr>
            </tbody>
          </table>
        )}
      </Async>
    </>
  );
}
