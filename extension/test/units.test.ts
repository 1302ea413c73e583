import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTokenMap } from '../../src/engines/dlp/index.js';
import { RISK_SEVERITY_FLOORS } from '../../src/engines/risk/index.js';
import { severityOf as serverSeverity } from '../../src/modules/dlp/index.js';
import { alertFindings, analyzePrompt, riskLevel } from '../src/shared/analysis.js';
import { COMPOSER_SELECTOR, isComposerInputType } from '../src/shared/composer.js';
import { parseEnrollment } from '../src/shared/enrollment.js';
import { aiSitePatterns } from '../src/background/ai-sites.js';
import { compileRules } from '../src/background/dnr.js';
import { catalogCategories } from '../build.js';
import {
  aiCategoryOf,
  aiSiteHosts,
  aiSiteOf,
  blockedHosts,
  DEFAULT_CONFIG,
  type EndpointConfig,
  forceModeHosts,
  pasteBlockedTypes,
  sendAction,
  serviceDecision,
  tokenizeByDefault,
} from '../src/shared/policy.js';
import { genericSlots, promptSlots } from '../src/shared/prompt-slots.js';
import { ocrLanguages } from '../src/shared/ocr-langs.js';
import { headerSignals, isChatBody, siteOf } from '../src/shared/radar-signals.js';
import { SseRehydrator } from '../src/shared/sse-rehydrate.js';
import type { SendAnswer } from '../src/shared/bridge.js';
import { builtinSiteAt, hostMatches } from '../src/shared/sites.js';
import {
  type Ask,
  BlockedSend,
  binaryText,
  builtin,
  generic,
  makeProtect,
  RecentPrompt,
  wrapFetch,
  xhrResendBody,
} from '../src/page/hook-core.js';

const map = createTokenMap([
  { token: 'TKN_NAME_0a1b2c3g', type: 'NAME', value: 'Anna Schmidt' },
  { token: 'TKN_IBAN_9f8e7d6h', type: 'IBAN', value: 'DE89 3704 0044 0532 0130 00' },
]);

describe('prompt slots', () => {
  it('ChatGPT: only the message parts, the rest of the body unchanged', () => {
    const body = JSON.stringify({
      action: 'next',
      messages: [{ id: 'm1', content: { parts: ['hi Anna'] } }],
      model: 'auto',
    });
    const s = promptSlots('chatgpt', body)!;
    assert.deepEqual(s.texts, ['hi Anna']);
    assert.equal(s.rebuild(['hi Anna']), body);
    assert.deepEqual(JSON.parse(s.rebuild(['hi TKN'])), {
      ...JSON.parse(body),
      messages: [{ id: 'm1', content: { parts: ['hi TKN'] } }],
    });
  });

  it('Gemini: the prompt inside f.req, other form fields kept', () => {
    const inner = JSON.stringify([['hello Anna', 0, null], ['en']]);
    const body = `f.req=${encodeURIComponent(JSON.stringify([null, inner]))}&at=tok`;
    const s = promptSlots('gemini', body)!;
    assert.deepEqual(s.texts, ['hello Anna']);
    const out = new URLSearchParams(s.rebuild(['hello X']));
    assert.equal(out.get('at'), 'tok');
    assert.equal(JSON.parse(JSON.parse(out.get('f.req')!)[1])[0][0], 'hello X');
    assert.equal(s.texts[0], 'hello Anna');
  });

  it('Perplexity: query_str and params.dsl_query are both the prompt; settings are not', () => {
    const body = JSON.stringify({
      params: { language: 'en-US', mode: 'concise', dsl_query: 'hi Anna', frontend_uuid: 'f-1' },
      query_str: 'hi Anna',
    });
    const s = promptSlots('perplexity', body)!;
    assert.deepEqual(s.texts, ['hi Anna', 'hi Anna']);
    const out = JSON.parse(s.rebuild(['hi TKN', 'hi TKN']));
    assert.equal(out.query_str, 'hi TKN');
    assert.equal(out.params.dsl_query, 'hi TKN');
    assert.equal(out.params.frontend_uuid, 'f-1');
  });

  it('Copilot and Le Chat: the text items of content / messageInput lists, not their types', () => {
    const copilot = JSON.stringify({
      event: 'send',
      conversationId: 'c1',
      content: [{ type: 'text', text: 'hi Anna' }],
      mode: 'chat',
    });
    assert.deepEqual(promptSlots('copilot', copilot)!.texts, ['hi Anna']);
    const mistral = JSON.stringify({
      chatId: 'x',
      mode: 'append',
      messageInput: [{ type: 'text', text: 'hi Anna' }],
      clientPromptData: { userTimezone: 'T+01:00 (Europe/Paris)' },
    });
    assert.deepEqual(promptSlots('mistral', mistral)!.texts, ['hi Anna']);
  });

  it('a body without prompt text is not a send', () => {
    assert.equal(promptSlots('claude', JSON.stringify({ model: 'x', id: 3 })), null);
    assert.equal(promptSlots('claude', 'not json'), null);
  });
});

describe('generic prompt slots (AI sites without a known request format)', () => {
  it('JSON: every string at any key, rebuilt with only the replaced ones changed', () => {
    const body = JSON.stringify({ session: 's-1', input: { userMessage: 'hi Anna', tags: ['a'] }, n: 3 });
    const s = genericSlots(body, 'application/json')!;
    assert.deepEqual(s.texts, ['s-1', 'hi Anna', 'a']);
    assert.equal(s.rebuild(s.texts), body);
    assert.deepEqual(JSON.parse(s.rebuild(['s-1', 'hi TKN_NAME_x', 'a'])), {
      session: 's-1',
      input: { userMessage: 'hi TKN_NAME_x', tags: ['a'] },
      n: 3,
    });
  });

  it('a form body by its fields, other text whole; multipart and binary cannot be rewritten', () => {
    const f = genericSlots('q=hi+Anna&lang=en', 'application/x-www-form-urlencoded')!;
    assert.deepEqual(f.texts, ['hi Anna', 'en']);
    assert.equal(f.rebuild(['hi TKN', 'en']), 'q=hi+TKN&lang=en');
    const t = genericSlots('hi Anna', 'text/plain')!;
    assert.deepEqual(t.texts, ['hi Anna']);
    assert.equal(t.rebuild(['hi TKN']), 'hi TKN');
    assert.equal(
      genericSlots(
        '--x\r\nContent-Disposition: form-data; name="m"\r\n\r\nhi',
        'multipart/form-data; boundary=x',
      ),
      null,
    );
    assert.equal(genericSlots('PK\u0003\u0004\uFFFD\uFFFD', ''), null);
  });
});

describe('AI sites of the config', () => {
  const config: EndpointConfig = {
    configVersion: 3,
    policy: {
      enforcement: 'warn',
      rules: {
        aiServices: {
          mode: 'blocklist',
          allowed: [{ domain: '*.Assistant.ACME.test' }],
          blocked: [{ domain: 'bad host!' }, { domain: 'chat.evil.test' }],
        },
      },
    },
    shadowAi: {
      catalogVersion: '2026.11.1',
      knownDomains: ['chat.deepseek.com', 'chatgpt.com', 'openai.com'],
      allowed: ['llm.corp.test'],
      blocked: [],
      monitored: ['10.0.0.7'],
    },
  };

  it('the catalog, its decisions and the policy lists are AI sites; invalid names are dropped', () => {
    assert.deepEqual(aiSiteHosts(config), [
      '10.0.0.7',
      'assistant.acme.test',
      'chat.deepseek.com',
      'chat.evil.test',
      'chat.mistral.ai',
      'chat.openai.com',
      'chatgpt.com',
      'claude.ai',
      'copilot.microsoft.com',
      'gemini.google.com',
      'llm.corp.test',
      'openai.com',
      'perplexity.ai',
      'www.perplexity.ai',
    ]);
    assert.deepEqual(aiSiteOf('x.assistant.acme.test', config), {
      name: 'x.assistant.acme.test',
      builtin: false,
    });
    assert.deepEqual(aiSiteOf('claude.ai', config), { name: 'Claude', builtin: true });
    assert.equal(aiSiteOf('example.com', config), null);
    assert.equal(aiSiteOf('chat.deepseek.com', DEFAULT_CONFIG), null);
  });

  it('match patterns: each host with its subdomains, the built-in sites excluded (the manifest has them)', () => {
    const p = aiSitePatterns(config);
    assert.deepEqual(p.matches, [
      '*://10.0.0.7/*',
      '*://*.assistant.acme.test/*',
      '*://*.chat.deepseek.com/*',
      '*://*.chat.evil.test/*',
      '*://*.llm.corp.test/*',
      '*://*.openai.com/*',
    ]);
    assert.ok(p.excludeMatches.includes('*://chat.openai.com/*'));
    assert.ok(p.excludeMatches.includes('*://chatgpt.com/*'));
    assert.deepEqual(aiSitePatterns(DEFAULT_CONFIG).matches, []);
  });
});

describe('SSE rehydration in the page', () => {
  const stream = (events: string[], sep = '\n') => events.map((e) => `data: ${e}${sep}${sep}`).join('');

  it('a token split across every possible pair of chunks and events is never shown in part', () => {
    const text = 'Dear TKN_NAME_0a1b2c3g, your IBAN TKN_IBAN_9f8e7d6h is noted.';
    const deltas = text.match(/.{1,4}/g)!;
    const raw = stream([
      '"v1"',
      JSON.stringify({ p: '/message/content/parts/0', o: 'append', v: deltas[0] }),
      ...deltas.slice(1).map((v) => JSON.stringify({ v })),
      '[DONE]',
    ]);
    for (let cut = 1; cut < raw.length; cut += 7) {
      const r = new SseRehydrator(map);
      const out = r.push(raw.slice(0, cut)) + r.push(raw.slice(cut)) + r.flush();
      let shown = '';
      for (const m of out.matchAll(/^data: (.*)$/gm)) {
        if (m[1] === '[DONE]' || m[1] === '"v1"') continue;
        shown += JSON.parse(m[1]!).v;
        assert.ok(!/TKN/.test(shown), shown);
      }
      assert.equal(shown, 'Dear Anna Schmidt, your IBAN DE89 3704 0044 0532 0130 00 is noted.');
    }
  });

  it('Anthropic events with CRLF keep their event lines; held text is flushed before message_stop', () => {
    const ev = (d: unknown, name = 'content_block_delta') =>
      `event: ${name}\r\ndata: ${JSON.stringify(d)}\r\n\r\n`;
    const delta = (text: string) =>
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    const r = new SseRehydrator(map);
    const out =
      r.push(delta('Hi TKN_NA') + delta('ME_0a1b2c3g') + ev({ type: 'message_stop' }, 'message_stop')) +
      r.flush();
    const texts = [...out.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]).join('');
    assert.equal(texts, 'Hi Anna Schmidt');
    assert.match(out, /event: message_stop\r\ndata: \{"type":"message_stop"\}/);
    assert.ok(out.indexOf('Anna') < out.indexOf('message_stop'));
  });
});

describe('a body labelled text/event-stream that is not SSE', () => {
  it('passes through chunk by chunk (Le Chat patch lines), unchanged and not held to the end', () => {
    const r = new SseRehydrator(map);
    const first =
      '15:{"json":{"patches":[{"op":"append","path":"/contentChunks/0/text","value":"Hi TKN_"}]}}\n';
    assert.equal(r.push(first.slice(0, 10)), '');
    assert.equal(r.push(first.slice(10)), first);
    assert.equal(r.push('15:{"json":{"type":"done"}}\n'), '15:{"json":{"type":"done"}}\n');
    assert.equal(r.flush(), '');
  });
});

describe('policy', () => {
  const cfg = (
    rules: EndpointConfig['policy']['rules'],
    enforcement: 'block' | 'warn' | 'log' = 'block',
  ): EndpointConfig => ({
    configVersion: 2,
    policy: { enforcement, rules },
  });

  it('blocklist with wildcard and exception; allowlist blocks known AI hosts not allowed', () => {
    const c = cfg({
      aiServices: {
        mode: 'blocklist',
        blocked: [{ domain: '*.perplexity.ai', except: ['labs.perplexity.ai'] }],
      },
    });
    assert.equal(serviceDecision('www.perplexity.ai', c).blocked, true);
    assert.equal(serviceDecision('labs.perplexity.ai', c).blocked, false);
    assert.equal(serviceDecision('chatgpt.com', c).blocked, false);
    const a = cfg({
      aiServices: {
        mode: 'allowlist',
        allowed: [{ domain: 'chatgpt.com', conditions: { requireDlp: true, maxInputLength: 100 } }],
      },
    });
    assert.equal(serviceDecision('claude.ai', a).blocked, true);
    assert.deepEqual(serviceDecision('chatgpt.com', a), {
      blocked: false,
      requireDlp: true,
      maxInputLength: 100,
    });
    assert.ok(blockedHosts(a).block.includes('claude.ai'));
    assert.ok(!blockedHosts(a).block.includes('chatgpt.com'));
  });

  it('catalog decisions: blocked unless the policy allows it; the most specific listed domain wins', () => {
    const c: EndpointConfig = {
      ...cfg({ aiServices: { mode: 'blocklist', blocked: [], allowed: [{ domain: 'chat.deepseek.com' }] } }),
      shadowAi: {
        knownDomains: ['deepseek.com', 'corp.test'],
        allowed: ['llm.corp.test'],
        blocked: ['deepseek.com', 'corp.test', 'x.llm.corp.test'],
        monitored: [],
      },
    };
    assert.equal(serviceDecision('api.deepseek.com', c).blocked, true);
    assert.equal(serviceDecision('chat.deepseek.com', c).blocked, false); // the policy allows it
    assert.equal(serviceDecision('corp.test', c).blocked, true);
    assert.equal(serviceDecision('a.llm.corp.test', c).blocked, false);
    assert.equal(serviceDecision('x.llm.corp.test', c).blocked, true);
    assert.deepEqual(blockedHosts(c), {
      block: ['corp.test', 'deepseek.com', 'x.llm.corp.test'],
      except: ['chat.deepseek.com', 'llm.corp.test'],
      exceptNot: ['x.llm.corp.test'],
    });
    // without any aiServices rule the catalog still decides; in allowlist mode an approval counts as allowed
    const noPolicy: EndpointConfig = { ...cfg({}), shadowAi: c['shadowAi'] };
    assert.equal(serviceDecision('deepseek.com', noPolicy).blocked, true);
    const allow: EndpointConfig = {
      ...cfg({ aiServices: { mode: 'allowlist', allowed: [] } }),
      shadowAi: {
        knownDomains: ['llm.corp.test', 'pi.ai'],
        allowed: ['llm.corp.test'],
        blocked: [],
        monitored: [],
      },
    };
    assert.equal(serviceDecision('llm.corp.test', allow).blocked, false);
    assert.equal(serviceDecision('pi.ai', allow).blocked, true);
    assert.ok(!blockedHosts(allow).block.includes('llm.corp.test'));
    // the policy's own block comes first: a catalog approval under it opens neither the page nor the sends
    const policyFirst: EndpointConfig = {
      ...cfg({ aiServices: { mode: 'blocklist', blocked: [{ domain: 'google.com' }], allowed: [] } }),
      shadowAi: {
        knownDomains: ['gemini.google.com'],
        allowed: ['gemini.google.com'],
        blocked: [],
        monitored: [],
      },
    };
    assert.equal(serviceDecision('gemini.google.com', policyFirst).blocked, true);
    assert.deepEqual(blockedHosts(policyFirst), { block: ['google.com'], except: [], exceptNot: [] });
  });

  it('rules: exceptions allow, except the blocked hosts inside them; allowed pages may call blocked hosts', () => {
    const c: EndpointConfig = {
      ...cfg({ aiServices: { mode: 'allowlist', allowed: [{ domain: 'chatgpt.com' }] } }),
      shadowAi: {
        knownDomains: ['oaiusercontent.com'],
        allowed: ['llm.corp.test'],
        blocked: ['corp.test', 'x.llm.corp.test'],
        monitored: [],
      },
    };
    const rules = compileRules(c, undefined);
    const allowRule = rules.find((r) => r.action.type === 'allow')!;
    assert.deepEqual(allowRule.condition.requestDomains, ['chatgpt.com', 'llm.corp.test']);
    assert.deepEqual(allowRule.condition.excludedRequestDomains, ['x.llm.corp.test']);
    const blockRule = rules.find((r) => r.action.type === 'block')!;
    assert.ok(blockRule.condition.requestDomains!.includes('oaiusercontent.com'));
    assert.deepEqual(blockRule.condition.excludedInitiatorDomains, ['chatgpt.com', 'llm.corp.test']);
    const pages = rules
      .filter((r) => r.action.type === 'redirect')
      .map((r) => r.condition.requestDomains![0]);
    assert.ok(
      pages.includes('oaiusercontent.com') && pages.includes('claude.ai') && !pages.includes('chatgpt.com'),
    );
  });

  it('send action: tokens when chosen or required, else the warn threshold with the enforcement', () => {
    const decision = { blocked: false, requireDlp: false };
    const base = { config: DEFAULT_CONFIG, decision, riskScore: 90, findings: 3, inputLength: 10 };
    assert.equal(sendAction({ ...base, tokenizeChosen: true }).action, 'tokenize');
    assert.equal(sendAction({ ...base, tokenizeChosen: false }).action, 'warn');
    assert.equal(
      sendAction({ ...base, tokenizeChosen: false, decision: { blocked: false, requireDlp: true } }).action,
      'tokenize',
    );
    assert.equal(sendAction({ ...base, tokenizeChosen: false, riskScore: 10 }).action, 'allow');
    const strict = cfg({ dataProtection: { warnBeforeSubmit: { enabled: true, threshold: 30 } } }, 'block');
    assert.equal(sendAction({ ...base, config: strict, tokenizeChosen: false }).action, 'block');
    assert.equal(
      sendAction({
        ...base,
        config: strict,
        tokenizeChosen: true,
        decision: { blocked: false, requireDlp: false, maxInputLength: 5 },
      }).action,
      'block',
    );
  });

  it('an enrolled device is never less strict than the built-in defaults: tokens off, risky data is not sent in clear unasked', () => {
    const decision = { blocked: false, requireDlp: false };
    // risk 90 (NAME, IBAN, EMAIL), tokens switched off in the bar
    const base = { decision, riskScore: 90, findings: 3, inputLength: 10, tokenizeChosen: false };
    const unenrolled = sendAction({ ...base, config: DEFAULT_CONFIG }).action;
    assert.equal(unenrolled, 'warn');
    // a config whose policies leave warnBeforeSubmit out (a policy created by API without it, or none)
    for (const enforcement of ['warn', 'block'] as const) {
      const silent = cfg({ aiServices: { mode: 'blocklist', blocked: [] } }, enforcement);
      assert.equal(sendAction({ ...base, config: silent }).action, enforcement, enforcement);
      // below the built-in threshold of 50 it is sent (and logged), as before enrollment
      assert.equal(sendAction({ ...base, config: silent, riskScore: 45 }).action, 'allow');
    }
    // under block the threshold holds even with the warning switched off: never sent in clear
    const off = cfg({ dataProtection: { warnBeforeSubmit: { enabled: false, threshold: 60 } } }, 'block');
    assert.equal(sendAction({ ...base, config: off }).action, 'block');
    assert.equal(sendAction({ ...base, config: off, riskScore: 55 }).action, 'allow');
    assert.equal(sendAction({ ...base, config: off, tokenizeChosen: true }).action, 'tokenize');
    // under warn the organization's explicit choice to ask nothing holds; under log nothing is stopped
    const warnOff = cfg({ dataProtection: { warnBeforeSubmit: { enabled: false, threshold: 60 } } }, 'warn');
    assert.equal(sendAction({ ...base, config: warnOff }).action, 'allow');
    assert.equal(sendAction({ ...base, config: cfg({}, 'log') }).action, 'allow');
  });

  // The shipped catalog's categories, as the server sends them in shadowAi.categories.
  const shipped = catalogCategories();
  const withCatalog = (
    policy: EndpointConfig['policy'] = { enforcement: 'warn', rules: {} },
    extra: Record<string, string> = {},
  ): EndpointConfig => ({
    configVersion: 3,
    policy,
    shadowAi: {
      knownDomains: Object.keys(shipped),
      categories: { ...shipped, ...extra },
      allowed: [],
      blocked: [],
      monitored: [],
    },
  });

  it('the build inlines every catalog domain with its category', () => {
    assert.equal(shipped['notion.so'], 'Writing');
    assert.equal(shipped['canva.com'], 'Image Gen');
    assert.equal(shipped['chat.deepseek.com'], 'LLM Chat');
    assert.equal(shipped['notebooklm.google.com'], 'Writing');
    assert.ok(Object.keys(shipped).length > 100);
  });

  it('tokenize by default: on where a prompt is the point of the page, off on document and creative tools', () => {
    const c = withCatalog(
      {
        enforcement: 'warn',
        rules: {
          aiServices: {
            mode: 'blocklist',
            allowed: [{ domain: 'llm.corp.test' }, { domain: 'grammarly.com' }],
            blocked: [{ domain: 'sneaky-llm.test' }],
          },
        },
      },
      { 'wiki.corp.test': 'Writing', 'ask.corp.test': 'Enterprise' },
    );
    const cases: Array<[string, boolean, string | undefined]> = [
      ['chatgpt.com', true, 'LLM Chat'], // built-in
      ['www.perplexity.ai', true, 'Search'], // built-in
      ['chat.deepseek.com', true, 'LLM Chat'],
      ['www.phind.com', true, shipped['phind.com']],
      ['replit.com', true, 'Code Assistant'],
      ['notion.so', false, 'Writing'],
      ['www.notion.so', false, 'Writing'],
      ['app.grammarly.com', false, 'Writing'], // named by the policy, but a known document tool
      ['www.deepl.com', false, 'Writing'],
      ['gamma.app', false, 'Writing'],
      ['www.canva.com', false, 'Image Gen'],
      ['notebooklm.google.com', false, 'Writing'], // more specific than a google.com listing
      ['gemini.google.com', true, 'LLM Chat'],
      ['wiki.corp.test', false, 'Writing'], // the organization's own entry
      ['ask.corp.test', true, 'Enterprise'],
      ['llm.corp.test', true, undefined], // named by the policy, outside the catalog
      ['sneaky-llm.test', true, undefined],
      ['unknown.example', false, undefined],
    ];
    for (const [host, on, category] of cases) {
      assert.equal(aiCategoryOf(host, c), category, host);
      assert.equal(tokenizeByDefault(host, c), on, host);
    }
    for (const cat of ['Video Gen', 'Audio/Voice']) {
      const host = Object.keys(shipped).find((d) => shipped[d] === cat)!;
      assert.equal(tokenizeByDefault(host, c), false, cat);
    }
    for (const cat of ['Search', 'Code Assistant', 'Enterprise', 'LLM Chat']) {
      const host = Object.keys(shipped).find((d) => shipped[d] === cat)!;
      assert.equal(tokenizeByDefault(host, c), true, cat);
    }
    // off by default: the user's choice turns it on; requireDlp forces it whatever the choice
    const decision = serviceDecision('notion.so', c);
    const base = { config: c, decision, riskScore: 10, findings: 1, inputLength: 20 };
    const off = tokenizeByDefault('notion.so', c);
    assert.equal(sendAction({ ...base, tokenizeChosen: off }).action, 'allow');
    assert.equal(sendAction({ ...base, tokenizeChosen: true }).action, 'tokenize');
    const forced = withCatalog({
      enforcement: 'warn',
      rules: {
        aiServices: {
          mode: 'blocklist',
          allowed: [{ domain: 'notion.so', conditions: { requireDlp: true } }],
        },
      },
    });
    const d2 = serviceDecision('notion.so', forced);
    assert.equal(d2.requireDlp, true);
    assert.equal(
      sendAction({
        ...base,
        config: forced,
        decision: d2,
        tokenizeChosen: tokenizeByDefault('notion.so', forced),
      }).action,
      'tokenize',
    );
  });

  it('force mode: the chat hosts of the catalog and the policy, never API hosts or other categories; blocks win', () => {
    const c: EndpointConfig = {
      ...withCatalog({
        enforcement: 'block',
        rules: {
          aiServices: {
            mode: 'blocklist',
            allowed: [{ domain: 'llm.corp.test' }, { domain: 'notion.so' }],
            blocked: [{ domain: 'deepseek.com', except: ['chat.deepseek.com'] }, { domain: 'pi.ai' }],
          },
        },
      }),
      forceMode: { enabled: true },
    };
    c['shadowAi'] = { ...(c['shadowAi'] as object), blocked: ['sora.chatgpt.com'] };
    const { hosts, exact, exclude } = forceModeHosts(c);
    // built-in and policy-named hosts: with their subdomains
    for (const h of ['chatgpt.com', 'claude.ai', 'llm.corp.test']) assert.ok(hosts.includes(h), h);
    // catalog chat entries: the host itself and its www. only
    for (const h of [
      'chat.deepseek.com',
      'kimi.com',
      'www.kimi.com',
      'poe.com',
      'openai.com',
      'huggingface.co',
    ])
      assert.ok(exact.includes(h) && !hosts.includes(h), h);
    for (const h of [
      'deepseek.com', // blocked: its block page wins
      'www.deepseek.com',
      'pi.ai',
      'generativelanguage.googleapis.com', // an API host
      'notion.so', // allowed by the policy, but a Writing tool
      'canva.com',
      'www.phind.com',
      'phind.com', // Search: a prompt page, but not a chat
      'replit.com',
    ])
      assert.ok(!hosts.includes(h) && !exact.includes(h), h);
    assert.ok(!exact.includes('chatgpt.com'), 'a built-in host is in hosts, not twice');
    assert.ok(exclude.includes('api.chatgpt.com') && exclude.includes('api.claude.ai'));
    assert.ok(exclude.includes('sora.chatgpt.com'), 'a blocked host under a redirected one');

    const rules = compileRules(c, 'https://parapet.test');
    const redirects = rules.filter((r) => r.action.redirect?.url === 'https://parapet.test/chat');
    const force = redirects.find((r) => r.condition.requestDomains)!;
    assert.deepEqual(force.condition.requestDomains, hosts);
    assert.deepEqual(force.condition.excludedRequestDomains, exclude);
    assert.deepEqual(force.condition.resourceTypes, ['main_frame']);
    // the catalog hosts by their own URL: docs, help and file CDNs of a vendor stay reachable
    const byRegex = redirects.filter((r) => r.condition.regexFilter);
    assert.equal(byRegex.length, exact.length);
    const redirected = (url: string) =>
      byRegex.some((r) => new RegExp(r.condition.regexFilter!).test(url)) ||
      hosts.some((h) => hostMatches(new URL(url).hostname, h));
    for (const u of [
      'https://openai.com/',
      'https://www.openai.com/x',
      'https://huggingface.co/chat/',
      'https://kimi.com:443/',
    ])
      assert.ok(redirected(u), u);
    for (const u of [
      'https://help.openai.com/en/',
      'https://files.oaiusercontent.com/file-1',
      'https://docs.mistral.ai/',
      'https://platform.openai.com/',
      'https://openai.com.evil.test/',
    ])
      assert.ok(!redirected(u), u);
    for (const r of redirects) assert.equal(r.priority, force.priority);
    const allow = rules.find((r) => r.action.type === 'allow')!;
    assert.ok(force.priority! > allow.priority!);
    for (const r of rules.filter((x) => x.action.redirect?.extensionPath))
      assert.ok(
        !hosts.includes(r.condition.requestDomains![0]!) && !exact.includes(r.condition.requestDomains![0]!),
        r.condition.requestDomains![0],
      );
    // enforcement log blocks nothing: every chat host goes to the protected chat
    const log: EndpointConfig = { ...c, policy: { ...c.policy, enforcement: 'log' } };
    assert.ok(forceModeHosts(log).hosts.includes('deepseek.com'));
    // force mode off or no server: no redirect
    assert.ok(
      !compileRules({ ...c, forceMode: { enabled: false } }, 'https://parapet.test').some(
        (r) => r.action.redirect?.url,
      ),
    );
    assert.ok(!compileRules(c, undefined).some((r) => r.action.redirect?.url));
  });

  it('blockCopyPaste patterns map to entity types', () => {
    const c = cfg({
      dataProtection: { blockCopyPaste: { enabled: true, patterns: ['CREDIT_CARD', 'SSN'] } },
    });
    assert.deepEqual([...pasteBlockedTypes(c)].sort(), [
      'AVS',
      'CARD',
      'CVV',
      'DE_TAX_ID',
      'IT_FISCAL_CODE',
      'NINO',
      'NIR',
      'SSN',
    ]);
    assert.equal(pasteBlockedTypes(DEFAULT_CONFIG).size, 0);
  });
});

describe('radar signals and enrollment links', () => {
  it('reads streaming, AI headers and chat bodies; reduces hosts to their site', () => {
    assert.deepEqual(
      headerSignals([
        { name: 'Content-Type', value: 'text/event-stream' },
        { name: 'openai-processing-ms', value: '3' },
      ]),
      ['streaming_response', 'ai_headers'],
    );
    assert.deepEqual(headerSignals([{ name: 'content-type', value: 'text/html' }]), []);
    assert.ok(isChatBody('{"model":"x","messages":[{"role":"user","content":"hi"}]}'));
    assert.ok(!isChatBody('{"messages":[1,2]}'));
    assert.equal(siteOf('api.chat.newai.co.uk'), 'newai.co.uk');
    assert.equal(siteOf('chat.newai-labs.test'), 'newai-labs.test');
  });

  it('parses an enrollment link with the code in its fragment or query', () => {
    assert.deepEqual(
      parseEnrollment('https://p.example.com/enroll#enr_abc123AAAAAAAAAAAAAAAAAAAAAAAAAA', ''),
      {
        serverUrl: 'https://p.example.com',
        code: 'enr_abc123AAAAAAAAAAAAAAAAAAAAAAAAAA',
      },
    );
    assert.deepEqual(
      parseEnrollment('https://p.example.com/?code=enr_x9BBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', ''),
      {
        serverUrl: 'https://p.example.com',
        code: 'enr_x9BBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
      },
    );
    assert.throws(() => parseEnrollment('https://p.example.com/', ''), /enrollment code/);
  });

  it('a code without the shape of one (enr_ and 32 letters or digits) gets the wrong-code words, before posting', () => {
    for (const code of [
      'enr_abc',
      'enr_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      'enr_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      'abc_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      'enr_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-',
    ]) {
      assert.throws(
        () => parseEnrollment('https://p.example.com/', code),
        { message: 'The enrollment code is not valid.' },
        code,
      );
    }
    assert.throws(() => parseEnrollment('https://p.example.com/#enr_short', ''), {
      message: 'The enrollment code is not valid.',
    });
    assert.equal(
      parseEnrollment('https://p.example.com/', ` enr_abc123AAAAAAAAAAAAAAAAAAAAAAAAAA `).code,
      'enr_abc123AAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
  });

  it('refuses a server address that would carry the device token in clear, with a message that says why', () => {
    assert.throws(
      () => parseEnrollment('http://parapet.example.com/enroll#enr_abc123AAAAAAAAAAAAAAAAAAAAAAAAAA', ''),
      /must start with https:\/\//,
    );
    assert.throws(
      () => parseEnrollment('http://10.0.0.7:3000/#enr_abc123AAAAAAAAAAAAAAAAAAAAAAAAAA', ''),
      /only for this computer/,
    );
    assert.throws(
      () => parseEnrollment('ftp://parapet.example.com/#enr_abc123AAAAAAAAAAAAAAAAAAAAAAAAAA', ''),
      /https:\/\/, not ftp:/,
    );
    assert.throws(
      () => parseEnrollment('parapet.example.com', 'enr_abc123AAAAAAAAAAAAAAAAAAAAAAAAAA'),
      /not a server address.*https:\/\/parapet/,
    );
    // the device itself (tests, a pilot on one machine) may be plain http
    for (const local of [
      'http://127.0.0.1:3000/#enr_a1CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC',
      'http://localhost:3000/#enr_a1CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC',
      'http://[::1]:3000/#enr_a1CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC',
    ])
      assert.equal(parseEnrollment(local, '').code, 'enr_a1CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC');
  });
});

describe('OCR languages', () => {
  it("the browser's languages among those shipped come first, English always last", () => {
    assert.equal(ocrLanguages([]), 'eng');
    assert.equal(ocrLanguages(['en-US', 'en']), 'eng');
    // English is read anyway: where the user put it in the list does not matter
    assert.equal(ocrLanguages(['de-CH', 'en-GB', 'fr', 'it-IT', 'de']), 'deu+fra+ita+eng');
    assert.equal(ocrLanguages(['es-ES', 'pt']), 'eng');
  });
});

describe('the page hook: what leaves', () => {
  const chatgpt = builtinSiteAt('chatgpt.com')!;
  const chatUrl = 'https://chatgpt.com/backend-api/conversation';
  const chatBody = JSON.stringify({
    action: 'next',
    messages: [{ content: { parts: ['hi Anna Schmidt'] } }],
  });
  type Sent = { input: RequestInfo | URL; init: RequestInit | undefined };
  const recorder = () => {
    const sent: Sent[] = [];
    const send = async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ input, init });
      return new Response('ok');
    };
    return { sent, send };
  };
  const bytesOf = async (s: Sent) => new Uint8Array(await new Request(s.input, s.init).arrayBuffer());
  const asks: Array<{ texts: string[]; opaque: boolean }> = [];
  const answering =
    (action: SendAnswer['action'], texts?: string[]): Ask =>
    async (_url, _transport, t, opaque) => {
      asks.push({ texts: t, opaque });
      return { op: 'answer', id: 1, action, ...(texts ? { texts } : {}) };
    };

  it('an upload with nothing to change leaves as the page built it, its bytes untouched', async () => {
    const integration = generic(new RecentPrompt(), createTokenMap());
    const { sent, send } = recorder();
    const fetch = wrapFetch(send, integration, makeProtect(integration, answering('allow')));
    const file = new Uint8Array([0xff, 0xfe, 0x00, 0x89, 0x50]);
    const form = new FormData();
    form.append('file', new Blob([file]), 'x.bin');
    const init = { method: 'POST', body: form };
    await fetch('https://files.example.test/upload', init);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.init, init, 'the page own init, not a rebuilt string body');
    const out = await bytesOf(sent[0]!);
    assert.ok(Buffer.from(out).includes(Buffer.from(file)), 'the file bytes as they were');
    assert.ok(!Buffer.from(out).includes(Buffer.from('\uFFFD')));
  });

  it('a Request input passes through after its body was read for the check', async () => {
    const integration = builtin(chatgpt, 'chatgpt.com');
    const { sent, send } = recorder();
    const fetch = wrapFetch(send, integration, makeProtect(integration, answering('allow')));
    // not watched (another host): the pass-through must not reuse the consumed Request
    await fetch(new Request('https://other.test/x', { method: 'POST', body: 'hello' }));
    assert.equal(new TextDecoder().decode(await bytesOf(sent[0]!)), 'hello');
    // watched, allowed: the page's own request again
    await fetch(new Request(chatUrl, { method: 'POST', body: chatBody }));
    assert.equal(new TextDecoder().decode(await bytesOf(sent[1]!)), chatBody);
  });

  it('a tokenized prompt leaves rebuilt', async () => {
    const integration = builtin(chatgpt, 'chatgpt.com');
    const { sent, send } = recorder();
    const fetch = wrapFetch(
      send,
      integration,
      makeProtect(integration, answering('tokenize', ['hi TKN_NAME_0a1b2c3g'])),
    );
    await fetch(chatUrl, { method: 'POST', body: chatBody });
    assert.match(new TextDecoder().decode(await bytesOf(sent[0]!)), /hi TKN_NAME_0a1b2c3g/);
  });

  it('an unknown site: a search sent as a query string leaves with tokens in the query, other GETs untouched', async () => {
    const recent = new RecentPrompt();
    recent.note('IBAN CH93 0076 2011 6238 5295 7', ['CH93 0076 2011 6238 5295 7']);
    const integration = generic(recent, createTokenMap());
    asks.length = 0;
    const { sent, send } = recorder();
    const fetch = wrapFetch(
      send,
      integration,
      makeProtect(integration, answering('tokenize', ['IBAN TKN_IBAN_0a1b2c3g'])),
    );
    await fetch('https://search.example.test/search?q=IBAN+CH93+0076+2011+6238+5295+7&lang=en');
    assert.equal(sent.length, 1);
    const url = new URL(new Request(sent[0]!.input, sent[0]!.init).url);
    assert.equal(url.searchParams.get('q'), 'IBAN TKN_IBAN_0a1b2c3g');
    assert.equal(url.searchParams.get('lang'), 'en');
    assert.ok(!url.href.includes('6238'), 'no original value in the URL');
    assert.deepEqual(asks, [{ texts: ['IBAN CH93 0076 2011 6238 5295 7'], opaque: false }]);
    // a GET that carries nothing typed leaves as the page made it, and no one is asked
    const init = { method: 'GET' };
    await fetch('https://search.example.test/suggest?q=weather', init);
    assert.equal(sent[1]!.init, init);
    assert.equal(asks.length, 1);
    // a refusal: nothing leaves
    const blocking = wrapFetch(send, integration, makeProtect(integration, answering('block')));
    await assert.rejects(
      blocking('https://search.example.test/search?q=CH93+0076+2011+6238+5295+7'),
      TypeError,
    );
    assert.equal(sent.length, 2);
  });

  it('a binary body carrying a prompt is asked about as opaque: never sent in clear, never rebuilt', async () => {
    const integration = builtin(chatgpt, 'chatgpt.com');
    for (const body of [
      new TextEncoder().encode(chatBody),
      new TextEncoder().encode(chatBody).buffer,
      new Blob([chatBody]),
    ]) {
      asks.length = 0;
      const { sent, send } = recorder();
      const fetch = wrapFetch(send, integration, makeProtect(integration, answering('block', undefined)));
      await assert.rejects(fetch(chatUrl, { method: 'POST', body }), TypeError);
      assert.equal(sent.length, 0);
      assert.deepEqual(asks, [{ texts: [chatBody], opaque: true }]);
    }
    // a tokenize answer to an opaque body cannot be applied: blocked
    const protect = makeProtect(integration, answering('tokenize', ['hi TKN_NAME_0a1b2c3g']));
    await assert.rejects(protect(new URL(chatUrl), chatBody, 'websocket', '', true), BlockedSend);
    // allowed: the original bytes leave
    const { sent, send } = recorder();
    const fetch = wrapFetch(send, integration, makeProtect(integration, answering('allow')));
    const bytes = new TextEncoder().encode(chatBody);
    await fetch(chatUrl, { method: 'POST', body: bytes });
    assert.equal(sent[0]!.init?.body, bytes);
    assert.equal(await binaryText(new Blob([bytes])), chatBody);
  });

  it('a tokenized URLSearchParams XHR body is sent as URLSearchParams (its Content-Type kept)', () => {
    const page = new URLSearchParams({ q: 'hi Anna Schmidt' });
    const read = page.toString();
    assert.equal(xhrResendBody(page, read, read), page);
    const out = xhrResendBody(page, read, 'q=hi+TKN_NAME_0a1b2c3g');
    assert.ok(out instanceof URLSearchParams);
    assert.equal(out.get('q'), 'hi TKN_NAME_0a1b2c3g');
    assert.equal(xhrResendBody('a', 'a', 'b'), 'b');
  });
});

describe('prompt boxes', () => {
  it('an <input> without a type and a search box are prompt boxes; a password field is not', () => {
    const clauses = COMPOSER_SELECTOR.split(',').map((c) => c.trim());
    for (const c of ['textarea', 'input:not([type])', 'input[type=text]', 'input[type=search]'])
      assert.ok(clauses.includes(c), c);
    assert.ok(!clauses.some((c) => c.includes('password') || c === 'input'));
    // an <input> with no type attribute reports the type "text"
    for (const t of ['text', 'search']) assert.ok(isComposerInputType(t), t);
    for (const t of ['password', 'email', 'number', 'hidden']) assert.ok(!isComposerInputType(t), t);
  });
});

describe('alert findings', () => {
  it("grade the risk with the server's levels (CRITICAL from 75, HIGH from 50, MEDIUM from 25)", () => {
    assert.deepEqual(RISK_SEVERITY_FLOORS, { CRITICAL: 75, HIGH: 50, MEDIUM: 25 });
    const cases: Array<[string, number, string, 'high' | 'mid' | 'low']> = [
      ['Mail anna.schmidt@example.com please', 10, 'LOW', 'low'],
      ['IBAN DE89 3704 0044 0532 0130 00 now', 30, 'MEDIUM', 'mid'],
      // 50 to 59: HIGH for the server, where the extension said MEDIUM (its HIGH began at 60)
      ['IBAN DE89 3704 0044 0532 0130 00 of Anna Schmidt.', 53, 'HIGH', 'high'],
      ['Card 4111 1111 1111 1111, mail anna.schmidt@example.com', 68, 'HIGH', 'high'],
      // 75 and up: CRITICAL for the server, which the extension never said
      [
        'IBAN DE89 3704 0044 0532 0130 00, phone +41 79 123 45 67, mail anna.schmidt@example.com',
        100,
        'CRITICAL',
        'high',
      ],
    ];
    for (const [text, risk, severity, level] of cases) {
      const a = analyzePrompt(text);
      assert.equal(a.risk, risk, text);
      assert.equal(alertFindings(a.entities)?.severity, severity, text);
      // the server's DLP events grade the same score the same way
      assert.equal(serverSeverity(a.risk), severity, text);
      assert.equal(riskLevel(a.risk), level, text);
    }
    for (let score = 0; score <= 100; score++)
      assert.equal(riskLevel(score), score >= 50 ? 'high' : score >= 25 ? 'mid' : 'low', String(score));
  });

  it('name the riskiest type and its domain, and list every type found, not only the first one found', () => {
    const text =
      'Mail anna.schmidt@example.com, IBAN DE89 3704 0044 0532 0130 00, phone +41 79 123 45 67, Anna Schmidt.';
    const { entities } = analyzePrompt(text);
    // the e-mail address comes first in the text; the IBAN weighs most
    assert.equal(entities[0]!.type, 'EMAIL');
    assert.deepEqual(alertFindings(entities), {
      type: 'IBAN',
      dlpDomain: 'FINANCIAL',
      types: ['IBAN', 'PHONE', 'EMAIL', 'NAME'],
      severity: 'CRITICAL',
    });
    assert.equal(alertFindings([]), undefined);
  });
});
