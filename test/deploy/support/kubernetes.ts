import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  name: string;
  body: Record<string, unknown>;
}

interface ModelClass {
  apiVersion: string;
  kind: string;
  new (data: Record<string, unknown>): { validate(): void };
}

/** Every document of every .yaml file in `folder`; a YAML syntax error fails here, naming the file. */
export function readManifests(folder: string): Manifest[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(folder, file), 'utf8')).map((document) => {
        if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
        const body = document.toJS() as Record<string, unknown>;
        const metadata = (body.metadata ?? {}) as { name?: string };
        return { file, apiVersion: String(body.apiVersion), kind: String(body.kind), name: metadata.name ?? '', body };
      }),
    );
}

/**
 * kubernetes-models' class for the manifest's apiVersion and kind (its modules are laid out as
 * `<group>/<version>`, the core group as `v1`), or an error: a kind the schema does not know is a
 * failure, never skipped.
 */
async function modelOf(manifest: Manifest): Promise<ModelClass> {
  if (!/^([a-z0-9.-]+\/)?v\d+((alpha|beta)\d+)?$/.test(manifest.apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(manifest.kind))
    throw new Error(`${manifest.file}: not an apiVersion/kind: ${manifest.apiVersion} ${manifest.kind}`);
  let module: Record<string, unknown>;
  try {
    module = (await import(/* @vite-ignore */ `kubernetes-models/${manifest.apiVersion}`)) as Record<string, unknown>;
  } catch {
    throw new Error(`${manifest.file}: no schema for apiVersion ${manifest.apiVersion}`);
  }
  const model = module[manifest.kind] as ModelClass | undefined;
  if (typeof model !== 'function' || model.kind !== manifest.kind || model.apiVersion !== manifest.apiVersion)
    throw new Error(`${manifest.file}: no schema for ${manifest.kind} in ${manifest.apiVersion}`);
  return model;
}

/** Validates the manifest against the Kubernetes API schema (kubernetes-models, Kubernetes 1.27); returns what is wrong, '' when valid. */
export async function schemaErrors(manifest: Manifest): Promise<string> {
  try {
    const Model = await modelOf(manifest);
    new Model(manifest.body).validate();
    return '';
  } catch (error) {
    const details = (error as { errors?: Array<{ instancePath: string; message: string }> }).errors;
    const what = details ? details.map((e) => `${e.instancePath} ${e.message}`).join('; ') : (error as Error).message;
    return `${manifest.file} ${manifest.kind}/${manifest.name}: ${what}`;
  }
}
