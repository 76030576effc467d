import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';

interface Asset {
  /** File name with a content hash, so an asset can be cached for good. */
  name: string;
  type: string;
  body: Buffer;
}

export interface Bundle {
  script: Asset;
  style: Asset;
}

const CLIENT = new URL('./client/', import.meta.url);

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/**
 * Bundles the browser client (TypeScript and CSS, next to this module both in src/ and in dist/) in
 * memory: one ES module and one style sheet. The esbuild service process is stopped afterwards, so it
 * costs nothing once the service runs (docs/dashboard.md, "Build").
 */
export async function bundleClient(): Promise<Bundle> {
  try {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('main.ts', CLIENT))],
      tsconfig: fileURLToPath(new URL('tsconfig.json', CLIENT)),
      bundle: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      write: false,
      outdir: '/assets',
      entryNames: '[name]-[hash]',
      logLevel: 'silent',
    });
    const assets = result.outputFiles.map((file) => {
      const name = file.path.slice(file.path.lastIndexOf('/') + 1);
      return { name, type: TYPES[name.slice(name.lastIndexOf('.'))], body: Buffer.from(file.contents) };
    });
    const script = assets.find((asset) => asset.name.endsWith('.js'));
    const style = assets.find((asset) => asset.name.endsWith('.css'));
    if (!script || !style) throw new Error(`the dashboard bundle lacks its ${script ? 'style sheet' : 'script'}`);
    return { script, style };
  } finally {
    await stop();
  }
}
