import { describe, expect, it } from 'vitest';
import { UserError } from '@baton/core';
import { secretsCheck, type CheckSubject } from '../src/index.js';
import { FAKE } from './fixtures.js';

const subject = (text: string): CheckSubject => ({ source: 'input', value: text, text });
const inspect = async (text: string, check = secretsCheck()) => check.inspect(subject(text));

describe('secretsCheck', () => {
  it.each([
    ['an OpenAI project key', `my key is ${FAKE.openaiKey}`, 'openai_api_key'],
    ['a legacy OpenAI key', `OPENAI_API_KEY=${FAKE.legacyOpenaiKey}`, 'openai_api_key'],
    ['an AWS access key id', `aws id ${FAKE.awsAccessKeyId} here`, 'aws_access_key_id'],
    ['an AWS secret access key', `aws_secret_access_key = ${FAKE.awsSecretKey}`, 'aws_secret_access_key'],
    ['a GitHub token', `token: ${FAKE.githubToken}`, 'github_token'],
    ['a fine-grained GitHub token', FAKE.githubPat, 'github_token'],
    ['a private key block', `here:\n${FAKE.privateKey}\nthanks`, 'private_key'],
    ['a private key header without its end', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA', 'private_key'],
    ['a high-entropy bearer token', `Authorization: Bearer ${FAKE.bearer}`, 'bearer_token'],
    ['a secret assignment', `api_key="${FAKE.genericSecret}"`, 'generic_secret'],
  ])('finds %s', async (_, text, kind) => {
    const verdict = await inspect(text);
    expect(verdict.tripped).toBe(true);
    expect(verdict.info.detected).toEqual([kind]);
  });

  it.each([
    ['prose', 'Please summarise the quarterly report.'],
    ['a library name', 'we use sk-learn and scikit-learn for ML'],
    ['a short sk- word', 'sk-8 is a skate shop'],
    ['a lowercase-only sk- phrase', 'sk-this-is-just-a-long-hyphenated-phrase'],
    ['a truncated AWS id', 'AKIA1234'],
    ['a short ghp_ value', 'ghp_abc'],
    ['a weak password assignment', 'password: hunter2'],
    ['a low-entropy bearer', 'Authorization: Bearer aaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['the word bearer', 'The bearer of this note is a friend.'],
    ['a public key', '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqh\n-----END PUBLIC KEY-----'],
  ])('does not flag %s', async (_, text) => {
    const verdict = await inspect(text);
    expect(verdict.tripped).toBe(false);
    expect(verdict.info).toEqual({ detected: [], counts: {}, findings: [] });
    expect(verdict.redacted).toBeUndefined();
  });

  it('redacts every secret, keeps the rest, and never puts a secret into its info', async () => {
    const text = `key ${FAKE.openaiKey}, aws ${FAKE.awsAccessKeyId}, header Bearer ${FAKE.bearer}, key2 ${FAKE.openaiKey}`;
    const verdict = await inspect(text);
    expect(verdict.redacted).toBe(
      'key [REDACTED:openai_api_key], aws [REDACTED:aws_access_key_id], header Bearer [REDACTED:bearer_token], key2 [REDACTED:openai_api_key]',
    );
    expect(verdict.info.detected).toEqual(['openai_api_key', 'aws_access_key_id', 'bearer_token']);
    expect(verdict.info.counts).toEqual({ openai_api_key: 2, aws_access_key_id: 1, bearer_token: 1 });
    expect(verdict.info.findings[0]).toEqual({ kind: 'openai_api_key', start: 4, end: 4 + FAKE.openaiKey.length });
    expect(JSON.stringify(verdict.info)).not.toContain(FAKE.openaiKey.slice(3));
  });

  it('finds secrets inside JSON text (tool arguments), private keys with escaped newlines included', async () => {
    const args = JSON.stringify({ note: 'deploy', key: FAKE.privateKey, token: FAKE.githubToken });
    const verdict = await inspect(args);
    expect(verdict.info.detected).toEqual(['private_key', 'github_token']);
    expect(JSON.parse(verdict.redacted!)).toEqual({ note: 'deploy', key: '[REDACTED:private_key]', token: '[REDACTED:github_token]' });
  });

  it('can be narrowed to some kinds and extended with patterns of your own', async () => {
    const onlyAws = secretsCheck({ kinds: ['aws_access_key_id'] });
    expect((await inspect(`${FAKE.openaiKey} ${FAKE.awsAccessKeyId}`, onlyAws)).info.detected).toEqual(['aws_access_key_id']);
    const custom = secretsCheck({ kinds: ['openai_api_key'], patterns: [{ kind: 'internal_token', pattern: /itk_[a-z0-9]{8}/ }] });
    const verdict = await inspect('use itk_ab12cd34 please', custom);
    expect(verdict.redacted).toBe('use [REDACTED:internal_token] please');
  });

  it('rejects bad options with a UserError', () => {
    expect(() => secretsCheck({ kinds: ['nope' as never] })).toThrow(/unknown secret kind "nope"/);
    expect(() => secretsCheck({ kinds: [] })).toThrow(UserError);
    expect(() => secretsCheck({ patterns: [{ kind: 'x', pattern: 'x' as never }] })).toThrow(/`patterns\[0\]` must be/);
    expect(() => secretsCheck({ minEntropy: -1 })).toThrow(/`minEntropy` must be a positive number/);
  });
});
