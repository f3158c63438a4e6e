import type { AppPasswordProvider } from '#contract/providers.js';

// Hosts of the providers reached over IMAP at known servers (their rows are in contract/providers.ts;
// descriptor.ts opens their mailboxes). `secure: true` is TLS from the first byte; `false` means the
// client upgrades with STARTTLS when the server offers it.

export interface HostConfig {
  host: string;
  port: number;
  secure: boolean;
}

export interface ProviderHosts {
  imap: HostConfig;
  /** null for a custom IMAP host: the add-mailbox form asks for the IMAP server only. */
  smtp: HostConfig | null;
}

/** A new IMAP provider with known hosts: its id here and its hosts in PRESETS. */
export const PRESET_PROVIDERS = [
  'yahoo',
  'icloud',
  'aol',
  'protonmail',
] as const satisfies readonly AppPasswordProvider[];
export type PresetProvider = (typeof PRESET_PROVIDERS)[number];
export type ImapProvider = PresetProvider | 'imap';

export const PRESETS: Readonly<Record<PresetProvider, { imap: HostConfig; smtp: HostConfig }>> = {
  yahoo: {
    imap: { host: 'imap.mail.yahoo.com', port: 993, secure: true },
    smtp: { host: 'smtp.mail.yahoo.com', port: 465, secure: true },
  },
  icloud: {
    imap: { host: 'imap.mail.me.com', port: 993, secure: true },
    smtp: { host: 'smtp.mail.me.com', port: 587, secure: false },
  },
  aol: {
    imap: { host: 'imap.aol.com', port: 993, secure: true },
    smtp: { host: 'smtp.aol.com', port: 465, secure: true },
  },
  // Proton Mail Bridge runs beside the user's mail client and speaks STARTTLS on loopback (the add-mailbox
  // form starts at the same IMAP address: contract/providers.ts).
  protonmail: {
    imap: { host: '127.0.0.1', port: 1143, secure: false },
    smtp: { host: '127.0.0.1', port: 1025, secure: false },
  },
};

/**
 * The address domains whose ownership a login at a preset's own server proves: the provider hosts those
 * addresses and checks the password against their owner. Proton Mail Bridge proves nothing: it runs on
 * the user's machine and accepts whatever account its operator signed in with. A provider not listed
 * here (and any server the user typed) proves no address.
 */
const PROOF_DOMAINS: Readonly<Record<PresetProvider, readonly string[]>> = {
  yahoo: ['yahoo.com', 'ymail.com', 'rocketmail.com'],
  icloud: ['icloud.com', 'me.com', 'mac.com'],
  // AOL also hosts the Verizon addresses moved to it in 2017.
  aol: ['aol.com', 'aim.com', 'verizon.net'],
  protonmail: [],
};

/**
 * The IMAP server of a preset provider that hosts addresses at `domain` (the built-in table the add-mailbox
 * form's suggestion falls back on, features/mailbox-settings), or null.
 */
export function presetImapForDomain(domain: string): HostConfig | null {
  const provider = PRESET_PROVIDERS.find((p) => PROOF_DOMAINS[p].includes(domain));
  return provider ? { ...PRESETS[provider].imap } : null;
}

/** Whether a working login at `provider`'s own server proves that `email` belongs to the user. */
export function loginProvesAddress(provider: string, email: string): boolean {
  if (!Object.hasOwn(PROOF_DOMAINS, provider)) return false;
  const at = email.lastIndexOf('@');
  const domain = at < 0 ? '' : email.slice(at + 1).toLowerCase();
  return PROOF_DOMAINS[provider as PresetProvider].includes(domain);
}

const ENV = 'MAIL_PROVIDER_OVERRIDES';

export type ProviderOverrides = Partial<
  Record<PresetProvider, { imap?: Partial<HostConfig>; smtp?: Partial<HostConfig> }>
>;

export function isImapProvider(name: string): name is ImapProvider {
  return name === 'imap' || (PRESET_PROVIDERS as readonly string[]).includes(name);
}

/**
 * Reads MAIL_PROVIDER_OVERRIDES. Every mistake throws naming the variable, so a typo in a self-hoster's
 * config fails at the first use instead of silently sending their users' passwords to the real host.
 */
export function parseProviderOverrides(json: string | undefined): ProviderOverrides {
  if (json === undefined || json.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new Error(`${ENV} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new Error(`${ENV} must be a JSON object keyed by provider`);
  const result: ProviderOverrides = {};
  for (const [provider, value] of Object.entries(parsed)) {
    if (!(PRESET_PROVIDERS as readonly string[]).includes(provider)) {
      throw new Error(
        `${ENV} names an unknown provider "${provider}" (known: ${PRESET_PROVIDERS.join(', ')})`,
      );
    }
    if (!isPlainObject(value))
      throw new Error(`${ENV}.${provider} must be an object with "imap" and/or "smtp"`);
    const entry: { imap?: Partial<HostConfig>; smtp?: Partial<HostConfig> } = {};
    for (const [kind, host] of Object.entries(value)) {
      if (kind !== 'imap' && kind !== 'smtp') {
        throw new Error(`${ENV}.${provider} has an unknown key "${kind}" (expected "imap" or "smtp")`);
      }
      entry[kind] = parseHostOverride(host, `${ENV}.${provider}.${kind}`);
    }
    result[provider as PresetProvider] = entry;
  }
  return result;
}

function parseHostOverride(value: unknown, where: string): Partial<HostConfig> {
  if (!isPlainObject(value)) throw new Error(`${where} must be an object like {"host","port","secure"}`);
  const out: Partial<HostConfig> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'host') {
      if (typeof v !== 'string' || v.trim() === '')
        throw new Error(`${where}.host must be a non-empty string`);
      out.host = v.trim();
    } else if (key === 'port') {
      if (!isPort(v)) throw new Error(`${where}.port must be an integer from 1 to 65535`);
      out.port = v;
    } else if (key === 'secure') {
      if (typeof v !== 'boolean') throw new Error(`${where}.secure must be true or false`);
      out.secure = v;
    } else {
      throw new Error(`${where} has an unknown key "${key}"`);
    }
  }
  return out;
}

/**
 * The hosts to use for a mailbox. Presets take MAIL_PROVIDER_OVERRIDES (pass the raw variable); a custom
 * `imap` mailbox uses exactly what the user typed, which the caller has validated as an address it may reach.
 */
export function resolveHosts(
  provider: ImapProvider,
  custom?: HostConfig,
  overridesJson?: string,
): ProviderHosts {
  if (provider === 'imap') {
    if (!custom) throw new Error('A custom IMAP mailbox needs host, port and security');
    if (!custom.host || !isPort(custom.port) || typeof custom.secure !== 'boolean') {
      throw new Error('A custom IMAP mailbox needs a host, a port from 1 to 65535 and a security choice');
    }
    return { imap: { host: custom.host, port: custom.port, secure: custom.secure }, smtp: null };
  }
  if (!Object.hasOwn(PRESETS, provider)) throw new Error(`Unknown mail provider "${provider}"`);
  const preset = PRESETS[provider];
  const override = parseProviderOverrides(overridesJson)[provider];
  return {
    // A preset whose form asks where the server is (Proton Mail Bridge, which may listen elsewhere) takes
    // the IMAP server typed; its connections judge that host like any other (descriptor.ts).
    imap: custom ? { ...custom } : { ...preset.imap, ...override?.imap },
    smtp: { ...preset.smtp, ...override?.smtp },
  };
}

function isPort(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
