export interface TemplateSet {
  tune: { pii: string[]; benign: string[] };
  test: { pii: string[]; benign: string[] };
}
