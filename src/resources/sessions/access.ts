/** The contract: read covers sessions, scorecards, transcripts and recordings; write covers create and cancel, and here every other change. */
export const READ = { auth: 'key-or-cookie', scope: 'sessions:read' } as const;
export const WRITE = { auth: 'key-or-cookie', scope: 'sessions:write' } as const;
export const TAGS = ['sessions'];
