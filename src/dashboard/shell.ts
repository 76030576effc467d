import { SCOPES } from '../platform/index.js';
import type { Bundle } from './bundle.js';

export const BASE = '/dashboard';

/**
 * The one HTML page: it loads the client, which draws everything else from the API. It carries the
 * canonical scope names (constants of the platform's scope table) for the key form's picker.
 */
export function shellHtml(bundle: Bundle): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dashboard</title>
<meta name="dashboard-scopes" content="${SCOPES.join(' ')}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${BASE}/assets/${bundle.style.name}">
<script type="module" src="${BASE}/assets/${bundle.script.name}"></script>
</head>
<body>
<noscript><p>The dashboard needs JavaScript. Everything it shows is also available over the API: <a href="/api/v1/docs">/api/v1/docs</a>.</p></noscript>
</body>
</html>
`;
}
