/** Who is calling, resolved once per request from the session cookie or the Bearer API key. */
export interface Principal {
  uidNumber: number;
  uid: string;
  isAdmin: boolean;
  via: 'session' | 'apikey';
}
