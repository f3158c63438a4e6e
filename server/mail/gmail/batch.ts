import { randomBytes } from 'node:crypto';
import { MailAuthError, MailConnectionError } from '../provider.js';
import { type RefusedRound, retryRefused } from '../shared/retry.js';
import { type GmailMethod, QUOTA_UNITS } from './api.js';
import { parseJson } from './google-oauth.js';
import {
  classify,
  type Failure,
  failureOf,
  type GmailTransport,
  isRateLimited,
  type Outcome,
} from './transport.js';

// Gmail batch requests (multipart/mixed, up to BATCH_LIMIT calls in one HTTP request): building them,
// reading their answers, and sending again the calls refused inside a batch (shared/retry.ts's loop).

/**
 * One batch request of GET calls. Returns the parsed bodies in call order (null for 404 when asked);
 * any other failure of an inner call throws as a single call would.
 */
export async function batchGet<T>(
  transport: GmailTransport,
  method: GmailMethod,
  paths: string[],
  opts: { notFoundAsNull: boolean; kind?: string },
): Promise<Array<T | null>> {
  const units = QUOTA_UNITS[method];
  const kind = opts.kind ?? method;
  const what = `batch ${method}`;
  const results = new Array<T | null>(paths.length).fill(null);
  let authRetried = false;
  let last = '';
  /** A 401 (of the whole batch or of calls in it): one fresh token, sent again without using a try. */
  const renewToken = () => {
    if (authRetried) throw new MailAuthError('Gmail refused the access token (401)');
    authRetried = true;
    transport.dropToken();
  };
  await retryRefused(
    paths.map((_, i) => i),
    async (pending): Promise<RefusedRound<number>> => {
      await transport.paced(units * pending.length);
      const outcome = await sendBatch(transport, paths, pending);
      if (!outcome.ok) {
        if (outcome.failure.status === 401 && !authRetried) {
          renewToken();
          return { again: pending, retryAfterMs: null, free: true };
        }
        transport.throwUnlessTransient(outcome.failure, what);
        last = outcome.failure.message;
        return { again: pending, retryAfterMs: outcome.failure.retryAfterMs };
      }
      const again: number[] = [];
      let wait: Failure | null = null;
      let unauthorized = false;
      for (const [n, index] of pending.entries()) {
        const part = outcome.value.get(`m${index}`) ?? outcome.value.get(`#${n}`);
        if (!part) {
          again.push(index);
          wait ??= { status: 0, reason: null, message: 'batch part missing', retryAfterMs: null };
          continue;
        }
        if (part.status >= 200 && part.status < 300) {
          transport.spend(units, kind);
          results[index] = parseJson(part.body) as T;
          continue;
        }
        const failure = failureOf(part.status, part.body, part.retryAfter, transport.now());
        if (part.status === 404 && opts.notFoundAsNull) {
          transport.spend(units, kind);
          continue;
        }
        if (part.status === 401) {
          unauthorized = true;
          again.push(index);
          continue;
        }
        if (isRateLimited(failure) || part.status >= 500) {
          if (part.status >= 500) transport.spend(units, kind);
          again.push(index);
          if (!wait || (failure.retryAfterMs ?? 0) > (wait.retryAfterMs ?? 0)) wait = failure;
          continue;
        }
        transport.spend(units, kind);
        throw classify(failure, `${method} in batch`);
      }
      if (again.length > 0 && unauthorized && !wait) {
        renewToken();
        return { again, retryAfterMs: null, free: true };
      }
      last = wait?.message ?? last;
      return { again, retryAfterMs: wait?.retryAfterMs ?? null };
    },
    {
      policy: transport.policy,
      what: `Gmail ${what}: rate limited`,
      sleep: transport.sleep,
      exhausted: (_left, attempt) =>
        new MailConnectionError(`Gmail ${what}: ${last} (gave up after ${attempt} attempts)`),
    },
  );
  return results;
}

/** One multipart/mixed batch request of the pending calls' GETs, its answer split into parts. */
function sendBatch(
  transport: GmailTransport,
  paths: string[],
  pending: number[],
): Promise<Outcome<Map<string, BatchPart>>> {
  return transport.accessToken().then((token) => {
    const boundary = `batch_${randomBytes(12).toString('hex')}`;
    const body = `${pending
      .map(
        (i) =>
          `--${boundary}\r\nContent-Type: application/http\r\nContent-ID: <m${i}>\r\n\r\nGET ${paths[i]}\r\n\r\n`,
      )
      .join('')}--${boundary}--\r\n`;
    return transport.send(
      transport.endpoints.batch,
      { method: 'POST', headers: { 'Content-Type': `multipart/mixed; boundary=${boundary}` }, body },
      token,
      async (res) => parseBatchResponse(res.headers.get('content-type') ?? '', await res.text()),
    );
  });
}

export interface BatchPart {
  status: number;
  body: string;
  retryAfter: string | null;
}

/** Splits a multipart/mixed batch answer; parts are keyed by their Content-ID (`response-<id>`) and position. */
export function parseBatchResponse(contentType: string, text: string): Map<string, BatchPart> {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!match) throw new Error('batch answer without a multipart boundary');
  const delimiter = `--${match[1] ?? match[2]}`;
  const parts = new Map<string, BatchPart>();
  const sections = text.split(delimiter).slice(1);
  let n = 0;
  for (const section of sections) {
    if (section.startsWith('--')) break;
    const normalized = section.replace(/\r\n/g, '\n').replace(/^\n/, '');
    const [partHead, rest] = splitOnce(normalized, '\n\n');
    const [httpHead, body] = splitOnce(rest, '\n\n');
    const lines = httpHead.split('\n');
    const status = Number(/^HTTP\/[\d.]+\s+(\d{3})/.exec(lines[0]?.trim() ?? '')?.[1] ?? 0);
    const retryAfter = lines.find((l) => /^retry-after:/i.test(l))?.replace(/^retry-after:/i, '') ?? null;
    const part: BatchPart = { status, body: body.trim(), retryAfter: retryAfter?.trim() ?? null };
    const id = /^content-id:\s*<?([^>\n]*)>?/im.exec(partHead)?.[1]?.trim();
    if (id) parts.set(id.replace(/^response-/, ''), part);
    parts.set(`#${n++}`, part);
  }
  return parts;
}

function splitOnce(text: string, sep: string): [string, string] {
  const at = text.indexOf(sep);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + sep.length)];
}
