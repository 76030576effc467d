import { expect } from 'vitest';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Issue {
  path: string[];
  message: string;
}

export interface Meta {
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

/** Any answer of the API, parsed: an envelope, a list or an error. */
interface Body {
  data?: unknown;
  meta?: Meta;
  error?: string;
  issues?: Issue[];
}

export interface Answer {
  method: Method;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON, or `{}` when the body is empty or not JSON (see `text`). */
  body: Body;
  json: boolean;
}

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with Content-Type application/json (malformed JSON). */
  raw?: string;
  /** Overrides the client's key; `null` sends none. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** A small HTTP client of the real server, as a user's code would call it. */
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly key?: string,
    private readonly serverErrors: string[] = [],
  ) {}

  withKey(key?: string): Api {
    return new Api(this.baseUrl, key, this.serverErrors);
  }

  async request(method: Method, path: string, options: RequestOptions = {}): Promise<Answer> {
    const key = options.key === null ? undefined : (options.key ?? this.key);
    const payload = options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
    const errorsBefore = this.serverErrors.length;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(key !== undefined ? { 'x-api-key': key } : {}),
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(payload !== undefined ? { body: payload } : {}),
    });
    const text = await response.text();
    let body: Body = {};
    let json = false;
    if (text !== '') {
      try {
        body = JSON.parse(text) as Body;
        json = true;
      } catch {
        json = false;
      }
    }
    const answer: Answer = { method, path, status: response.status, headers: response.headers, text, body, json };
    if (response.status >= 500) serverLogs.set(answer, this.serverErrors.slice(errorsBefore).join('\n'));
    return answer;
  }

  get(path: string, options?: RequestOptions): Promise<Answer> {
    return this.request('GET', path, options);
  }

  post(path: string, body?: unknown, options: RequestOptions = {}): Promise<Answer> {
    return this.request('POST', path, { ...options, ...(body !== undefined ? { body } : {}) });
  }

  patch(path: string, body?: unknown, options: RequestOptions = {}): Promise<Answer> {
    return this.request('PATCH', path, { ...options, ...(body !== undefined ? { body } : {}) });
  }

  delete(path: string, options?: RequestOptions): Promise<Answer> {
    return this.request('DELETE', path, options);
  }
}

const serverLogs = new WeakMap<Answer, string>();

/** One line saying what was asked and what came back, for assertion messages. */
export function explain(answer: Answer): string {
  const logs = serverLogs.get(answer);
  const text = answer.text.length > 3000 ? `${answer.text.slice(0, 3000)}…` : answer.text;
  return `${answer.method} ${answer.path} → ${answer.status} ${text}${logs ? `\nserver log:\n${logs.slice(0, 3000)}` : ''}`;
}

export function expectStatus(answer: Answer, status: number): void {
  expect(answer.status, explain(answer)).toBe(status);
}

/** Asserts the status and returns `data`, typed as the caller says it is. */
export function dataOf<T>(answer: Answer, status: number): T {
  expectStatus(answer, status);
  expect(answer.body.data, `no data in ${explain(answer)}`).toBeDefined();
  return answer.body.data as T;
}

export interface List<T> {
  data: T[];
  meta: Meta;
}

export function listOf<T>(answer: Answer): List<T> {
  expectStatus(answer, 200);
  expect(Array.isArray(answer.body.data), `data is not an array: ${explain(answer)}`).toBe(true);
  expect(answer.body.meta, `no meta: ${explain(answer)}`).toBeDefined();
  return { data: answer.body.data as T[], meta: answer.body.meta! };
}

/** Asserts an error answer: the status, `{ error: string }`, and on 400 a well-formed `issues`. */
export function expectError(answer: Answer, status: number): { error: string; issues: Issue[] } {
  expectStatus(answer, status);
  expect(answer.json, `error answers are JSON: ${explain(answer)}`).toBe(true);
  expect(typeof answer.body.error, `error is a string: ${explain(answer)}`).toBe('string');
  const issues = answer.body.issues ?? [];
  if (status === 400) {
    expect(Array.isArray(answer.body.issues) && issues.length > 0, `a 400 carries issues: ${explain(answer)}`).toBe(true);
    for (const issue of issues) {
      expect(
        Array.isArray(issue.path) && issue.path.every((part) => typeof part === 'string'),
        `issue path is string[]: ${explain(answer)}`,
      ).toBe(true);
      expect(typeof issue.message, `issue message is a string: ${explain(answer)}`).toBe('string');
    }
  }
  return { error: answer.body.error!, issues };
}

const startsWith = (path: string[], prefix: string[]) => prefix.every((part, index) => path[index] === part);

/** A 400 with an issue at `field` (a name, or a path whose issues may go deeper). */
export function expectIssue(answer: Answer, field: string | string[]): Issue[] {
  const { issues } = expectError(answer, 400);
  const prefix = [field].flat();
  expect(
    issues.some((issue) => startsWith(issue.path, prefix)),
    `expected an issue at ${prefix.join('.')}: ${explain(answer)}`,
  ).toBe(true);
  return issues;
}

/**
 * A 400 whose issues name a field the body should not have: at its path, or in the message of an
 * issue (zod reports unknown keys on the object that holds them, naming the key in the message).
 */
export function expectUnknownField(answer: Answer, field: string): void {
  const { issues } = expectError(answer, 400);
  expect(
    issues.some((issue) => issue.path.includes(field) || issue.message.includes(field)),
    `expected an issue naming ${field}: ${explain(answer)}`,
  ).toBe(true);
}

/** X-RateLimit-Limit, -Remaining and -Reset (an absolute Unix time in seconds) on an /api answer. */
export function expectRateLimitHeaders(answer: Answer): void {
  const where = `rate-limit headers of ${answer.method} ${answer.path} (${answer.status})`;
  expect(Number(answer.headers.get('x-ratelimit-limit')), where).toBeGreaterThan(0);
  expect(answer.headers.get('x-ratelimit-remaining'), where).toMatch(/^\d+$/);
  const reset = Number(answer.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset, where).toBeGreaterThanOrEqual(Math.floor(now));
  expect(reset, where).toBeLessThanOrEqual(Math.ceil(now) + 3600);
}

/** Walks a list endpoint page by page until meta.totalPages, checking every page's meta on the way. */
export async function walkPages<T extends { id: string }>(api: Api, path: string, pageSize: number): Promise<{ items: T[]; meta: Meta }> {
  const separator = path.includes('?') ? '&' : '?';
  const first = listOf<T>(await api.get(`${path}${separator}page=1&pageSize=${pageSize}`));
  const { total, totalPages } = first.meta;
  expect(first.meta, `meta of page 1 of ${path}`).toEqual({ page: 1, pageSize, total, totalPages: Math.ceil(total / pageSize) });
  const items = [...first.data];
  for (let page = 2; page <= totalPages; page++) {
    const next = listOf<T>(await api.get(`${path}${separator}page=${page}&pageSize=${pageSize}`));
    expect(next.meta, `meta of page ${page} of ${path}`).toEqual({ page, pageSize, total, totalPages });
    expect(next.data.length, `page ${page} of ${path}`).toBe(page < totalPages ? pageSize : total - pageSize * (totalPages - 1));
    items.push(...next.data);
  }
  if (totalPages <= 1) expect(first.data.length, `the only page of ${path}`).toBe(total);
  else expect(first.data.length, `page 1 of ${path}`).toBe(pageSize);
  const ids = items.map((item) => item.id);
  expect(new Set(ids).size, `walking ${path} repeated an item: ${ids.join(', ')}`).toBe(ids.length);
  expect(ids.length, `walking ${path} found ${ids.length} of meta.total ${total}`).toBe(total);
  return { items, meta: first.meta };
}
