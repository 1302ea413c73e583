import type { ExtractRequest, ExtractResult } from '../shared/messages.js';

// Where file text is extracted: Chrome's offscreen document (reason WORKERS), or on Firefox, whose
// background is a page with a DOM, a frame of that page. Both load extract.html.

let ready: Promise<void> | null = null;

async function ensure(): Promise<void> {
  const offscreen = (chrome as unknown as { offscreen?: typeof chrome.offscreen }).offscreen;
  if (offscreen) {
    const contexts = await chrome.runtime.getContexts({
      contextTypes: ['OFFSCREEN_DOCUMENT' as chrome.runtime.ContextType],
    });
    if (contexts.length > 0) return;
    await offscreen.createDocument({
      url: 'extract.html',
      reasons: ['WORKERS' as chrome.offscreen.Reason],
      justification:
        'Extract the text of files (OCR, PDF, Word) on the device before they are uploaded to an AI site',
    });
    return;
  }
  const frame = document.createElement('iframe');
  frame.src = chrome.runtime.getURL('extract.html');
  await new Promise<void>((resolve) => {
    frame.addEventListener('load', () => resolve(), { once: true });
    document.body.append(frame);
  });
}

export async function extractText(request: ExtractRequest): Promise<ExtractResult | { error: string }> {
  ready ??= ensure().catch((err) => {
    ready = null;
    throw err;
  });
  await ready;
  return chrome.runtime.sendMessage({ target: 'extractor', request });
}
