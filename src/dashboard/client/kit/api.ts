import { currentWorkspace } from './workspace.js';

export { currentWorkspace } from './workspace.js';

export interface Issue {
  path: string[];
  message: string;
}

/** A non-2xx answer of the API, with its `error` text as message and its field issues. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly issues: Issue[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: unknown; issues?: Issue[] };
    const message = typeof body.error === 'string' ? body.error : `${response.status} ${response.statusText}`;
    return new ApiError(message, response.status, Array.isArray(body.issues) ? body.issues : []);
  } catch {
    return new ApiError(`${response.status} ${response.statusText}`, response.status);
  }
}

const listeners: ((error: ApiError) => void)[] = [];

/** Called with every 401, so the shell can send the user back to the sign-in form. */
export function onUnauthenticated(listener: (error: ApiError) => void): void {
  listeners.push(listener);
}

/** One call of the service's own /api/v1 in the current workspace, with the session cookie; throws ApiError on non-2xx. */
export async function api<T>(
  method: Method,
  path: string,
  body?: unknown,
  query?: Record<string, string | number | undefined>,
): Promise<T> {
  const url = new URL(`/api/v1${path}`, location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const workspace = currentWorkspace();
  if (workspace && !url.searchParams.has('accountSlug')) url.searchParams.set('accountSlug', workspace);
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    // The page's Referrer-Policy is no-referrer, under which a browser may send `Origin: null`; the service's
    // cross-site check (src/platform/auth/csrf.ts) needs this origin, so same-origin calls name it.
    referrerPolicy: 'same-origin',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401) for (const listener of listeners) listener(error);
    throw error;
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
