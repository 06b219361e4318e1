/** Fake credentials and personal data shaped like the real thing (none of them is live). */
export const FAKE = {
  openaiKey: 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
  legacyOpenaiKey: 'sk-T3stK3yN0tR3al0000000000000000000000000000',
  awsAccessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  awsSecretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  githubToken: 'ghp_1234567890abcdefghijklmnopqrstuvwxYZ',
  githubPat: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
  privateKey: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7Yf3kL9\nq2Zp8Rt0uVw==\n-----END RSA PRIVATE KEY-----',
  bearer: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.Xk3p9Q2vR7tZ',
  genericSecret: 'Zx8qW2mN5vB7cR1tY4uI9oP3',
  visa: '4111 1111 1111 1111',
  amex: '378282246310005',
  mastercard: '5555-5555-5555-4444',
} as const;
