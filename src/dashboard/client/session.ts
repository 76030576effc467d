import { api } from './kit/api.js';
import { currentWorkspace, setWorkspace } from './kit/workspace.js';

export interface SignedIn {
  user: { id: string; email: string };
  workspaces: { slug: string; plan: string }[];
}

/** Keeps the tab's workspace if the user still belongs to it, else picks the first one. */
export function adopt(session: SignedIn): void {
  const slugs = session.workspaces.map((workspace) => workspace.slug);
  if (!slugs.includes(currentWorkspace())) setWorkspace(slugs[0] ?? '');
}

export async function currentSession(): Promise<SignedIn> {
  return (await api<{ data: SignedIn }>('GET', '/auth/session')).data;
}

export async function signIn(email: string, password: string): Promise<SignedIn> {
  return (await api<{ data: SignedIn }>('POST', '/auth/login', { email, password })).data;
}

export async function signOut(): Promise<void> {
  await api('POST', '/auth/logout');
  setWorkspace('');
}
