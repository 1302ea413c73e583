import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { webhookUrlProblem } from './webhook-url.js';
import { webhookWants } from './webhook-filter.js';

describe('webhook URL rules', () => {
  it('accepts public HTTPS URLs', () => {
    assert.equal(webhookUrlProblem('https://hooks.example.com/in?x=1', false), null);
    assert.equal(webhookUrlProblem('https://93.184.216.34:8443/in', false), null);
  });

  it('refuses other schemes, credentials, and private or metadata literals', () => {
    for (const url of [
      'http://hooks.example.com/in',
      'ftp://hooks.example.com/in',
      'https://user:pw@hooks.example.com/in',
      'https://10.0.0.5/in',
      'https://[::1]/in',
      'https://[::ffff:127.0.0.1]/in',
      'https://localhost/in',
      'https://169.254.169.254/latest',
      'not a url',
    ]) {
      assert.notEqual(webhookUrlProblem(url, false), null, url);
    }
  });

  it('allows loopback, over HTTP too, only when private targets are allowed; metadata never', () => {
    assert.equal(webhookUrlProblem('http://127.0.0.1:8080/hook', true), null);
    assert.equal(webhookUrlProblem('http://localhost:8080/hook', true), null);
    assert.equal(webhookUrlProblem('https://10.0.0.5/in', true), null);
    assert.notEqual(webhookUrlProblem('http://10.0.0.5/in', true), null, 'plain HTTP only for loopback');
    assert.notEqual(webhookUrlProblem('https://169.254.169.254/latest', true), null);
  });
});

describe('webhook subscriptions', () => {
  it('matches exact types, * and prefix wildcards only', () => {
    assert.equal(webhookWants(['detection.created'], 'detection.created'), true);
    assert.equal(webhookWants(['detection.created'], 'detection.high_severity'), false);
    assert.equal(webhookWants(['*'], 'quota.warning'), true);
    assert.equal(webhookWants(['dlp.*'], 'dlp.blocked'), true);
    assert.equal(webhookWants(['dlp.*'], 'dlpx.blocked'), false);
    assert.equal(webhookWants([], 'dlp.blocked'), false);
  });
});
