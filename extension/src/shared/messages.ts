// Messages from content scripts and extension pages to the service worker (chrome.runtime.sendMessage).

export interface AlertInput {
  /** the riskiest type found */
  type: string;
  /** every type found, riskiest first (alertFindings) */
  types?: string[];
  dlpDomain: string;
  domain: string;
  action: 'blocked' | 'warned' | 'redacted' | 'logged';
  severity: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';
  findingsCount: number;
  redactedPreview: string;
}

export interface LogInput {
  kind: 'interaction' | 'blocked' | 'warned' | 'redacted' | 'paste_blocked' | 'override';
  domain: string;
  detail?: Record<string, string | number | boolean>;
}

export interface ProofInput {
  platform: string;
  tokenizedPrompt: string;
  tokens: Array<{ token: string; type: string; domain: string }>;
  riskScore: number;
  processingMs: number;
}

export interface ExtractRequest {
  name: string;
  mime: string;
  base64: string;
  /** the browser's languages (navigator.languages): which OCR models read an image besides English */
  languages?: string[];
}

export interface ExtractResult {
  text: string;
  method: 'ocr' | 'pdf' | 'docx' | 'xlsx' | 'pptx';
  ms: number;
  /** OCR only: Tesseract's language string used, e.g. "deu+eng" */
  languages?: string;
}

export type ToBackground =
  | { kind: 'extract'; request: ExtractRequest }
  | { kind: 'alert'; alert: AlertInput }
  | { kind: 'log'; log: LogInput }
  | {
      kind: 'stat';
      domain: string;
      blockedReason?: 'unapproved_service' | 'dlp_violation' | 'policy_violation';
    }
  | { kind: 'proof'; proof: ProofInput }
  | { kind: 'vault-get'; origin: string }
  | { kind: 'vault-put'; origin: string; entries: Array<{ token: string; type: string; value: string }> }
  | { kind: 'enroll'; serverUrl: string; code: string; name?: string }
  | { kind: 'unenroll' }
  | { kind: 'sync' }
  | { kind: 'status' }
  | { kind: 'continue-blocked'; host: string };

export interface Status {
  enrolled: boolean;
  serverUrl?: string;
  organizationId?: string;
  /** the organization's name, from the config (absent from an older server: the popup shows the id) */
  organizationName?: string;
  deviceId?: string;
  configVersion: number;
  lastSync?: string;
  lastError?: string;
  queued: number;
  forceMode: boolean;
  enforcement: string;
  disabledSites: string[];
  version: string;
  /**
   * false when the organization's config says its users may not unenroll (settings.allowUserUnenroll):
   * the options page then offers no "Forget this enrollment". True otherwise, also with a config that does
   * not say (an older server); the server's 403 stays the guard either way.
   */
  unenrollAllowed: boolean;
  /**
   * true when the organization's deployment enrolls the device (managed configuration with serverUrl and
   * enrollmentCode), whether it holds a token yet or not: the worker refuses to unenroll it and to enroll it
   * by hand, so the options page offers neither "Forget this enrollment" nor the enrollment form.
   */
  managed: boolean;
}
