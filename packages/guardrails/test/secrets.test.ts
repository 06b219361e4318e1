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

  const awsSecret = FAKE.awsSecretKey;
  it.each([
    ['an environment file line', `AWS_SECRET_ACCESS_KEY=${awsSecret}\nAWS_REGION=eu-west-1`],
    ['a JSON configuration', JSON.stringify({ aws_secret_access_key: awsSecret, region: 'eu-west-1' })],
    ['a JSON configuration with spaces', `{ "aws_secret_access_key": "${awsSecret}" }`],
    ['a camel-case key name', `AwsSecretAccessKey: ${awsSecret}`],
    ['a credentials file line', `[default]\naws_secret_access_key = ${awsSecret}\n`],
  ])('finds an AWS secret access key in %s, and redacts only the key', async (_, text) => {
    const verdict = await inspect(text);
    expect(verdict.info.detected).toEqual(['aws_secret_access_key']);
    expect(verdict.redacted).toBe(text.replace(awsSecret, '[REDACTED:aws_secret_access_key]'));
  });

  const value = FAKE.genericSecret;
  it.each([
    ['apikey=', `apikey=${value}`],
    ['API-KEY:', `API-KEY: ${value}`],
    ['secret:', `secret: ${value}`],
    ['secretkey=', `secretkey=${value}`],
    ['secret_key =', `secret_key = ${value}`],
    ['secret-key=', `secret-key=${value}`],
    ['accesstoken=', `accesstoken=${value}`],
    ['access_token:', `access_token: ${value}`],
    ['authtoken=', `authtoken=${value}`],
    ['auth_token=', `auth_token=${value}`],
    ['password =', `password = ${value}`],
    ['passwd=', `passwd=${value}`],
    ['a quoted JSON property', JSON.stringify({ api_key: value })],
    ['a quoted name and value with spaces', `"api_key" : "${value}"`],
  ])('finds a `%s` assignment of a high-entropy value', async (_, text) => {
    const verdict = await inspect(text);
    expect(verdict.info.detected).toEqual(['generic_secret']);
    expect(verdict.redacted).toBe(text.replace(value, '[REDACTED:generic_secret]'));
  });

  it('finds a bearer token after several spaces', async () => {
    expect((await inspect(`Authorization: Bearer    ${FAKE.bearer}`)).info.detected).toEqual(['bearer_token']);
  });

  it('a bearer token or assigned value must mix character classes AND reach minEntropy (words and repetitive strings are not secrets)', async () => {
    // High entropy, but one class of letters only: a word-like string, not a random token.
    expect((await inspect('Authorization: Bearer abcdefghijklmnopqrstuvwxyz')).tripped).toBe(false);
    expect((await inspect('Authorization: Bearer ABCDEFGHIJKLMNOPQRSTUVWXYZ.-_~')).tripped).toBe(false);
    expect((await inspect('Authorization: Bearer 12345678901234567890')).tripped).toBe(false);
    // Mixed classes, low entropy.
    expect((await inspect('Authorization: Bearer abababababab1212121212')).tripped).toBe(false);
    expect((await inspect('password: aaaaaaaaaaaaaaaaaaaa11')).tripped).toBe(false);
    // Two classes are enough (lower case and digits; upper case and digits; lower and upper case).
    expect((await inspect('Authorization: Bearer k3j9x0q7w2m5z8r1t4y6')).info.detected).toEqual(['bearer_token']);
    expect((await inspect('Authorization: Bearer K3J9X0Q7W2M5Z8R1T4Y6')).info.detected).toEqual(['bearer_token']);
    expect((await inspect('Authorization: Bearer kJxQwMzRtYpLnBvCdFgH')).info.detected).toEqual(['bearer_token']);
  });

  it('minEntropy is a bound a token must reach: a token exactly at it is a secret, just below it is not', async () => {
    // 32 distinct characters, each once: exactly 5 bits per character.
    const token = 'ABCDEFGHIJKLMNOPabcdefghijklmnop';
    expect((await inspect(`Authorization: Bearer ${token}`, secretsCheck({ minEntropy: 5 }))).info.detected).toEqual(['bearer_token']);
    expect((await inspect(`Authorization: Bearer ${token}`, secretsCheck({ minEntropy: 5.01 }))).tripped).toBe(false);
    expect((await inspect(`password=${token}`, secretsCheck({ minEntropy: 5 }))).info.detected).toEqual(['generic_secret']);
  });

  it('an sk- value without letters after the prefix (a product code, a number) is not an OpenAI key', async () => {
    expect((await inspect('order sk-20240115000000001234567')).tripped).toBe(false);
    expect((await inspect('order sk-2024-0115-0000-0000-1234')).tripped).toBe(false);
    expect((await inspect(`key sk-${'1a'.repeat(12)}`)).info.detected).toEqual(['openai_api_key']);
  });

  it('says what is wrong with bad options, naming secretsCheck', () => {
    expect(() => secretsCheck({ kinds: [] })).toThrow('secretsCheck: `kinds` must be a non-empty array.');
    expect(() => secretsCheck({ kinds: 'openai_api_key' as never })).toThrow('secretsCheck: `kinds` must be a non-empty array.');
    expect(() => secretsCheck({ kinds: ['nope' as never] })).toThrow(
      'secretsCheck: unknown secret kind "nope"; known: private_key, openai_api_key, aws_access_key_id, aws_secret_access_key, github_token, bearer_token, generic_secret.',
    );
    expect(() => secretsCheck({ patterns: [{ kind: 3 as never, pattern: /x/ }] })).toThrow('secretsCheck: `patterns[0]` must be { kind: string, pattern: RegExp }, got object.');
    expect(() => secretsCheck({ patterns: [null as never] })).toThrow('secretsCheck: `patterns[0]` must be { kind: string, pattern: RegExp }, got null.');
    expect(() => secretsCheck({ maxInspectedChars: 0 })).toThrow('secretsCheck: `maxInspectedChars` must be a positive integer or Infinity, got 0.');
    expect(() => secretsCheck({ minEntropy: 0 })).toThrow('secretsCheck: `minEntropy` must be a positive number, got 0.');
  });

  it('tells the model its default message (or the one given)', () => {
    expect(secretsCheck().rejectMessage).toBe('Remove secrets before calling this tool.');
    expect(secretsCheck({ rejectMessage: 'No keys.' }).rejectMessage).toBe('No keys.');
    expect(secretsCheck().name).toBe('secrets');
  });

  it('rejects bad options with a UserError', () => {
    expect(() => secretsCheck({ kinds: ['nope' as never] })).toThrow(/unknown secret kind "nope"/);
    expect(() => secretsCheck({ kinds: [] })).toThrow(UserError);
    expect(() => secretsCheck({ patterns: [{ kind: 'x', pattern: 'x' as never }] })).toThrow(/`patterns\[0\]` must be/);
    expect(() => secretsCheck({ minEntropy: -1 })).toThrow(/`minEntropy` must be a positive number/);
  });
});
