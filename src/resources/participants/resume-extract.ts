/**
 * Turns the bytes of one kind of document into text. The handler asks each extractor in turn and
 * uses the first that accepts the document, so another format (or an embedder fed by the text) plugs
 * in as one more entry of the list given to `resumeHandler`.
 */
export interface Extractor {
  name: string;
  /** `contentType` is the media type the server declared, lower-cased without parameters ('' when none). */
  accepts(contentType: string, bytes: Buffer): boolean;
  extract(bytes: Buffer): Promise<string>;
}

/** The document is not one an extractor can read, or holds no text: fetching it again will not help. */
export class UnreadableDocument extends Error {}

const plainText: Extractor = {
  name: 'plain text',
  accepts: (contentType) => contentType === 'text/plain' || contentType === 'text/markdown',
  // Malformed UTF-8 becomes U+FFFD rather than a refusal: a résumé with one bad byte is still worth reading.
  extract: async (bytes) => new TextDecoder('utf-8').decode(bytes),
};

const pdf: Extractor = {
  name: 'PDF',
  // By its magic bytes: servers often send PDFs as application/octet-stream.
  accepts: (_contentType, bytes) => bytes.subarray(0, 5).toString('latin1') === '%PDF-',
  extract: async (bytes) => {
    // Loaded with the first PDF: PDF.js is of no use to a service that never fetches one.
    const { extractText: extractPdfText, getDocumentProxy } = await import('unpdf');
    // The PDF comes from anywhere: no code generated from its fonts, and PDF.js's warnings stay out of the service's output.
    const document = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, verbosity: 0 }).catch((error: unknown) => {
      throw new UnreadableDocument(`the PDF could not be read: ${error instanceof Error ? error.message : String(error)}`);
    });
    try {
      return (await extractPdfText(document, { mergePages: true })).text;
    } finally {
      await document.destroy();
    }
  },
};

export const DEFAULT_EXTRACTORS: readonly Extractor[] = [pdf, plainText];

/** The text of a document, by the first extractor that accepts it; throws UnreadableDocument when none does or it holds no text. */
export async function extractDocument(
  contentTypeHeader: string | undefined,
  bytes: Buffer,
  extractors: readonly Extractor[],
): Promise<string> {
  const contentType = (contentTypeHeader ?? '').split(';')[0].trim().toLowerCase();
  const extractor = extractors.find((candidate) => candidate.accepts(contentType, bytes));
  if (!extractor)
    throw new UnreadableDocument(
      `unsupported content type ${contentType || '(none)'}; readable: ${extractors.map((candidate) => candidate.name).join(', ')}`,
    );
  const text = (await extractor.extract(bytes)).trim();
  if (!text) throw new UnreadableDocument(`the ${extractor.name} document holds no text (scanned pages are not read)`);
  return text;
}
