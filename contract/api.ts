// Request and response shapes of the HTTP API (SPEC §7, GUIDE §5). Both sides import these.

export interface ErrorBody {
  message: string;
}

export interface CsrfTokenResponse {
  csrfToken: string;
}

export interface CredentialsBody {
  email: string;
  password: string;
}

export interface AuthResponse {
  redirectUrl: string;
}

export interface ForgotPasswordBody {
  email: string;
}

export interface ResetPasswordBody {
  token: string;
  password: string;
}

export interface StatusResponse {
  status: boolean;
}

export interface Settings {
  alertManualUnsubscribe: boolean;
  alertAfterUnsubscribe: boolean;
}

export interface ContactBody {
  /** "Name <address>" or a bare address. */
  from: string;
  subject: string;
  text: string;
}

export interface MessageResponse {
  message: string;
}

export type SubscriptionCategory = 'uncategorized' | 'kept' | 'unsubscribed';

export interface Subscription {
  id: string;
  address: string;
  senderName: string;
  messageCount: number;
  category: SubscriptionCategory;
  lastMessageAt: string | null;
  account: string;
}

export interface EmailAccount {
  email: string;
  provider: string;
}

/** What the screens may know about the server's configuration (GET /get-public-config). */
export interface PublicConfig {
  providers: {
    google: { available: boolean; reason?: string };
    outlook: { available: boolean; reason?: string };
  };
  billing: boolean;
  productName: string;
}
