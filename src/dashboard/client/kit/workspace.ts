const STORAGE_KEY = 'dashboard.workspace';

let current = sessionStorage.getItem(STORAGE_KEY) ?? '';

/** The workspace (accountSlug) every API call of the dashboard acts in. */
export function currentWorkspace(): string {
  return current;
}

/** Kept per tab, so two tabs may look at two workspaces; the slug is no secret. */
export function setWorkspace(slug: string): void {
  current = slug;
  if (slug) sessionStorage.setItem(STORAGE_KEY, slug);
  else sessionStorage.removeItem(STORAGE_KEY);
}
