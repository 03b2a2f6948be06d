/** Who is calling, resolved once per request from the session cookie or the Bearer API key. */
export interface Principal {
  uidNumber: number;
  uid: string;
  isAdmin: boolean;
  via: 'session' | 'apikey';
  /** The API key's id when `via` is `apikey` (the audit log names the key). */
  apiKeyId?: string;
}
