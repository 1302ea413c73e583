import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Tenant, type TestServer } from '../support/harness.js';

// Who may use the protected chat and its stored conversations with a dashboard session (docs/auth.md,
// docs/gateway.md). With no provider configured the chat answers with the offline echo, which repeats the
// message rehydrated: what a colleague could get back by sending another user's tokens into their
// conversation.
let t: TestServer;
let tenant: Tenant;
const CHAT = '/api/v1/gateway/chat';
const CONVERSATIONS = '/api/v1/gateway/conversations';
const EMAIL = 'alice.private@example.com';

before(async () => {
  t = await startTestServer();
  tenant = await t.tenant({ name: 'Conversation owners' });
});
after(async () => {
  await t.close();
});

async function aliceConversation(): Promise<{ id: string; token: string }> {
  const alice = await tenant.session('member');
  const res = await t.request('POST', CHAT, { cookie: alice, body: { message: `Mail me at ${EMAIL}` } });
  assert.equal(res.status, 200, res.text);
  const id = res.body.conversationId as string;
  const read = await t.request('GET', `${CONVERSATIONS}/${id}`, { cookie: alice });
  assert.equal(read.status, 200, read.text);
  const token = /TKN_EMAIL_[0-9a-z]+/.exec(read.text)?.[0];
  assert.ok(token, 'the stored message is tokenized');
  return { id, token };
}

describe('protected chat with a dashboard session', () => {
  it('a viewer (read only) may not chat or erase conversations', async () => {
    const { id } = await aliceConversation();
    const viewer = await tenant.session('viewer');
    const chat = await t.request('POST', CHAT, { cookie: viewer, body: { message: 'hello' } });
    assert.equal(chat.status, 403, chat.text);
    assert.equal(chat.body.error, 'forbidden');
    const del = await t.request('DELETE', `${CONVERSATIONS}/${id}`, { cookie: viewer });
    assert.equal(del.status, 403, del.text);
    assert.equal(del.body.error, 'forbidden');
    const still = await t.request('GET', `${CONVERSATIONS}/${id}`, { key: tenant.sw });
    assert.equal(still.status, 200, 'the conversation is still there');
  });

  it("another member neither reads, continues nor erases a member's conversation", async () => {
    const { id, token } = await aliceConversation();
    const bob = await tenant.newSession('member');
    const list = await t.request('GET', CONVERSATIONS, { cookie: bob });
    assert.equal(list.status, 200, list.text);
    assert.ok(!list.text.includes(id), 'not listed to a colleague');
    const read = await t.request('GET', `${CONVERSATIONS}/${id}`, { cookie: bob });
    assert.equal(read.status, 404, read.text);
    // Continuing it would rehydrate Alice's tokens in the answer.
    const cont = await t.request('POST', CHAT, { cookie: bob, body: { message: token, conversationId: id } });
    assert.equal(cont.status, 404, cont.text);
    assert.ok(!cont.text.includes(EMAIL));
    const del = await t.request('DELETE', `${CONVERSATIONS}/${id}`, { cookie: bob });
    assert.equal(del.status, 404, del.text);
  });

  it('the member who started it keeps using it; an admin session does not; keys see the organization', async () => {
    const { id, token } = await aliceConversation();
    const alice = await tenant.session('member');
    const cont = await t.request('POST', CHAT, { cookie: alice, body: { message: token, conversationId: id } });
    assert.equal(cont.status, 200, cont.text);
    assert.match(cont.body.response, new RegExp(EMAIL.replace(/\./g, '\\.')));

    // The chat page is a person's own: an admin's session neither lists, reads, continues nor erases it.
    const admin = await tenant.session('admin');
    const listed = await t.request('GET', CONVERSATIONS, { cookie: admin });
    assert.equal(listed.status, 200, listed.text);
    assert.ok(!listed.text.includes(id));
    assert.equal((await t.request('GET', `${CONVERSATIONS}/${id}`, { cookie: admin })).status, 404);
    const adminCont = await t.request('POST', CHAT, {
      cookie: admin,
      body: { message: token, conversationId: id },
    });
    assert.equal(adminCont.status, 404, adminCont.text);
    assert.equal((await t.request('DELETE', `${CONVERSATIONS}/${id}`, { cookie: admin })).status, 404);

    // A key stands for the organization: the security team reads and erases every conversation with one.
    const keyList = await t.request('GET', CONVERSATIONS, { key: tenant.sw });
    assert.ok(keyList.text.includes(id));
    const mine = await t.request('GET', CONVERSATIONS, { cookie: alice });
    assert.ok(mine.text.includes(id), 'its starter lists it');
    const del = await t.request('DELETE', `${CONVERSATIONS}/${id}`, { key: tenant.sw });
    assert.equal(del.status, 200, del.text);
    assert.equal((await t.request('GET', `${CONVERSATIONS}/${id}`, { cookie: alice })).status, 404);
  });

  it('a conversation started with a key is continued with a key, not with a session', async () => {
    const res = await t.request('POST', CHAT, { key: tenant.sw, body: { message: `Mail ${EMAIL}` } });
    assert.equal(res.status, 200, res.text);
    const id = res.body.conversationId as string;
    const member = await tenant.session('member');
    const cont = await t.request('POST', CHAT, { cookie: member, body: { message: 'hi', conversationId: id } });
    assert.equal(cont.status, 404, cont.text);
    const byKey = await t.request('POST', CHAT, { key: tenant.sw, body: { message: 'hi', conversationId: id } });
    assert.equal(byKey.status, 200, byKey.text);
  });
});
