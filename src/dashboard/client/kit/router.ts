import { ApiError } from './api.js';
import { clear, h } from './dom.js';

type Render = (params: Record<string, string>, query: URLSearchParams) => Promise<Node> | Node;

interface Route {
  parts: string[];
  render: Render;
  title: string;
  nav: string;
}

const routes: Route[] = [];

/**
 * Declares a page at a hash pattern ('/sessions/:id'). `nav` is the hash of the navigation entry shown as current
 * ('#/sessions'); by default the pattern's first segment.
 */
export function page(pattern: string, render: Render, options: { title: string; nav?: string }): void {
  const parts = pattern.split('/').filter(Boolean);
  routes.push({ parts, render, title: options.title, nav: options.nav ?? `#/${parts[0] ?? ''}` });
}

export function navigate(hash: string): void {
  if (location.hash === hash) void show();
  else location.hash = hash;
}

function match(route: Route, parts: string[]): Record<string, string> | undefined {
  if (route.parts.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of route.parts.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(parts[index]);
    else if (part !== parts[index]) return undefined;
  }
  return params;
}

function resolve(hash: string): { route: Route; params: Record<string, string>; query: URLSearchParams } | undefined {
  const [path, search = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  for (const route of routes) {
    const params = match(route, parts);
    if (params) return { route, params, query: new URLSearchParams(search) };
  }
  return undefined;
}

/** The box a page shows instead of its content when it could not be drawn. */
function errorBox(error: unknown): HTMLElement {
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiError ? ` (${error.status})` : '';
  return h('div', { class: 'error', role: 'alert' }, h('strong', null, `Could not load this page${status}: `), message);
}

let outlet: HTMLElement | undefined;
let onShow: (nav: string) => void = () => {};
let rendering = 0;

async function show(): Promise<void> {
  if (!outlet) return;
  const target = outlet;
  const found = resolve(location.hash || '#/');
  const turn = ++rendering;
  const title = found?.route.title ?? 'Not found';
  document.title = `${title} · Dashboard`;
  onShow(found?.route.nav ?? '');
  let content: Node;
  try {
    content = found ? await found.route.render(found.params, found.query) : h('h1', null, 'Not found');
  } catch (error) {
    content = h('section', null, h('h1', null, title), errorBox(error));
  }
  // A later navigation finished first: its page stays.
  if (turn !== rendering) return;
  clear(target);
  target.appendChild(content);
  const heading = target.querySelector<HTMLElement>('h1');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

/** Draws the current hash's page into `main` now and on every hash change; `nav` hears which entry is current. */
export function startRouter(main: HTMLElement, nav: (current: string) => void): void {
  outlet = main;
  onShow = nav;
  window.addEventListener('hashchange', () => void show());
  void show();
}

/** Draws the current page again (after the workspace changed). */
export function refresh(): void {
  void show();
}
