import { describe, expect, it } from 'vitest';
import { bearerToken, callerToken, cookieValue, PAGE_HEADER, sessionCookie } from './credentials.js';
import { ConsoleProblem } from './problem.js';

describe('bearerToken', () => {
  it('takes the token of a Bearer Authorization header and nothing else', () => {
    expect(bearerToken('Bearer abc.def-1')).toBe('abc.def-1');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
  });
});

describe('callerToken', () => {
  const cookie = 'theme=dark; zkoam_token=abc.def%2B1';

  it('prefers the Authorization header, else takes the session cookie', () => {
    expect(callerToken('POST', { authorization: 'Bearer header-token', cookie })).toBe('header-token');
    expect(callerToken('GET', { cookie })).toBe('abc.def+1');
    expect(callerToken('GET', { cookie: 'zkoam_token=' })).toBeUndefined();
    expect(callerToken('GET', {})).toBeUndefined();
  });

  it('refuses a change made with the cookie alone unless the page header says the page sent it', () => {
    expect(() => callerToken('POST', { cookie })).toThrow(ConsoleProblem);
    expect(() => callerToken('DELETE', { cookie })).toThrow(/x-zk-oam-console/);
    expect(callerToken('POST', { cookie, [PAGE_HEADER]: '1' })).toBe('abc.def+1');
  });
});

describe('session cookie', () => {
  it('is HttpOnly and SameSite=Strict on the API path, Secure behind HTTPS, and cleared with Max-Age=0', () => {
    expect(sessionCookie('t+1', false)).toBe('zkoam_token=t%2B1; Path=/api/v1; HttpOnly; SameSite=Strict');
    expect(sessionCookie('t', true)).toContain('; Secure');
    expect(sessionCookie('', false)).toBe('zkoam_token=; Path=/api/v1; HttpOnly; SameSite=Strict; Max-Age=0');
    expect(cookieValue(sessionCookie('t+1', false).split(';')[0], 'zkoam_token')).toBe('t+1');
  });
});
