import {
  BATCH_LIMIT,
  BATCH_MODIFY_LIMIT,
  GmailApiError,
  type GmailFilter,
  type GmailFilterInput,
  type GmailLabel,
  type GmailMessage,
  type GmailProfile,
  type HistoryPage,
  type HistoryRecord,
  type HistoryType,
  type MessageList,
} from './api.js';
import { batchGet } from './batch.js';
import { type GmailClientOptions, GmailTransport } from './transport.js';

// A small Gmail REST client over fetch: one method per Gmail endpoint the adapter uses. Tokens, retries,
// pacing and the quota count are transport.ts's; batch requests batch.ts's; answer shapes api.ts's.

export class GmailClient {
  private readonly transport: GmailTransport;

  constructor(options: GmailClientOptions) {
    this.transport = new GmailTransport(options);
  }

  get endpoints() {
    return this.transport.endpoints;
  }

  /** Quota units of every call Gmail answered (rate-limit refusals excluded). */
  quotaUnitsSpent(): number {
    return this.transport.quotaUnitsSpent();
  }

  /** The same units by what they bought (`kind` of the calls, else the Gmail method). */
  quotaUnitsByKind(): Record<string, number> {
    return this.transport.quotaUnitsByKind();
  }

  /** Drops the cached access token and gets a new one: verifies the grant itself. */
  async refresh(): Promise<void> {
    this.transport.dropToken();
    await this.transport.accessToken();
  }

  getProfile(): Promise<GmailProfile> {
    return this.transport.call<GmailProfile>('getProfile', '/gmail/v1/users/me/profile');
  }

  async listLabels(): Promise<GmailLabel[]> {
    const res = await this.transport.call<{ labels?: GmailLabel[] }>(
      'labels.list',
      '/gmail/v1/users/me/labels',
    );
    return res.labels ?? [];
  }

  /** `labels.create` of a label shown in the label list and on messages, as one the user makes in Gmail. */
  createLabel(name: string): Promise<GmailLabel> {
    // Retried as usual: a label made by a first attempt that seemed to fail answers the retry as a conflict,
    // which the caller resolves by name.
    return this.transport.call<GmailLabel>('labels.create', '/gmail/v1/users/me/labels', {
      body: { name, labelListVisibility: 'labelShow', messageListVisibility: 'show' },
    });
  }

  /** `labels.get` (1 unit), with the label's message count; null when the label no longer exists. */
  async getLabel(id: string): Promise<GmailLabel | null> {
    try {
      return await this.transport.call<GmailLabel>(
        'labels.get',
        `/gmail/v1/users/me/labels/${encodeURIComponent(id)}`,
      );
    } catch (err) {
      if (err instanceof GmailApiError && err.status === 404) return null;
      throw err;
    }
  }

  /** `labelIds`: only messages carrying every one of these labels (by id, where a search takes names). */
  async listMessages(params: {
    q: string;
    labelIds?: readonly string[];
    pageToken?: string | null;
    maxResults?: number;
    includeSpamTrash?: boolean;
    /** What the units buy, for quotaUnitsByKind (default the method). */
    kind?: string;
  }): Promise<MessageList> {
    const query = new URLSearchParams({
      maxResults: String(params.maxResults ?? 500),
      includeSpamTrash: String(params.includeSpamTrash ?? false),
    });
    if (params.q) query.set('q', params.q);
    for (const id of params.labelIds ?? []) query.append('labelIds', id);
    if (params.pageToken) query.set('pageToken', params.pageToken);
    const res = await this.transport.call<{
      messages?: Array<{ id: string }>;
      nextPageToken?: string;
      resultSizeEstimate?: number;
    }>('messages.list', `/gmail/v1/users/me/messages?${query}`, undefined, params.kind);
    return {
      ids: (res.messages ?? []).map((m) => m.id),
      nextPageToken: res.nextPageToken ?? null,
      resultSizeEstimate: res.resultSizeEstimate ?? 0,
    };
  }

  /** Every id of a query, newest first, page by page (5 units per 500 ids). */
  async listAllIds(
    q: string,
    options: { labelIds?: readonly string[]; includeSpamTrash?: boolean; kind?: string } = {},
  ): Promise<string[]> {
    const ids: string[] = [];
    let pageToken: string | null = null;
    do {
      const page: MessageList = await this.listMessages({ q, pageToken, ...options });
      ids.push(...page.ids);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return ids;
  }

  /** `types`: the history records wanted (default messageAdded; the check adds the label changes). */
  async listHistory(params: {
    startHistoryId: string;
    pageToken?: string | null;
    types?: readonly HistoryType[];
    kind?: string;
  }): Promise<HistoryPage> {
    const query = new URLSearchParams({ startHistoryId: params.startHistoryId, maxResults: '500' });
    for (const type of params.types ?? ['messageAdded']) query.append('historyTypes', type);
    if (params.pageToken) query.set('pageToken', params.pageToken);
    const res = await this.transport.call<{
      history?: HistoryRecord[];
      nextPageToken?: string;
      historyId: string;
    }>('history.list', `/gmail/v1/users/me/history?${query}`, undefined, params.kind);
    return { history: res.history ?? [], nextPageToken: res.nextPageToken ?? null, historyId: res.historyId };
  }

  /**
   * `messages.get format=metadata` for many ids, BATCH_LIMIT per batch request. A message deleted meanwhile
   * maps to null. Calls refused inside a batch (429, rate-limit 403) are sent again after the wait.
   */
  async getMetadata(
    ids: readonly string[],
    headers: readonly string[],
    kind?: string,
  ): Promise<Map<string, GmailMessage | null>> {
    const out = new Map<string, GmailMessage | null>();
    const unique = [...new Set(ids)];
    const query = new URLSearchParams({ format: 'metadata' });
    for (const h of headers) query.append('metadataHeaders', h);
    for (let i = 0; i < unique.length; i += BATCH_LIMIT) {
      const chunk = unique.slice(i, i + BATCH_LIMIT);
      const paths = chunk.map((id) => `/gmail/v1/users/me/messages/${encodeURIComponent(id)}?${query}`);
      const results = await batchGet<GmailMessage>(this.transport, 'messages.get', paths, {
        notFoundAsNull: true,
        kind,
      });
      for (const [n, id] of chunk.entries()) out.set(id, results[n] ?? null);
    }
    return out;
  }

  /** `messages.get format=raw` (5 units): the RFC 822 source, or null when the message no longer exists. */
  async getRaw(id: string): Promise<Buffer | null> {
    try {
      const res = await this.transport.call<{ raw?: string }>(
        'messages.get',
        `/gmail/v1/users/me/messages/${encodeURIComponent(id)}?format=raw`,
      );
      return res.raw ? Buffer.from(res.raw, 'base64url') : null;
    } catch (err) {
      // 404: deleted for good; 400: an id Gmail cannot even parse. Either way there is nothing to show.
      if (err instanceof GmailApiError && (err.status === 404 || err.status === 400)) return null;
      throw err;
    }
  }

  /** `messages.send` of a raw RFC 5322 message; Gmail files it under SENT. */
  sendMessage(raw: Buffer): Promise<{ id: string; threadId?: string; labelIds?: string[] }> {
    // Not retried after a network failure or a 5xx: the message may have gone out, and a second copy must not.
    return this.transport.call('messages.send', '/gmail/v1/users/me/messages/send', {
      body: { raw: raw.toString('base64url') },
      unsafe: true,
    });
  }

  /** `messages.batchModify` of at most 1,000 ids (Gmail's limit per request). */
  async batchModify(ids: readonly string[], addLabelIds: string[], removeLabelIds: string[]): Promise<void> {
    if (ids.length > BATCH_MODIFY_LIMIT) throw new Error('batchModify takes at most 1,000 ids per call');
    await this.transport.call<null>('messages.batchModify', '/gmail/v1/users/me/messages/batchModify', {
      body: { ids, addLabelIds, removeLabelIds },
    });
  }

  createFilter(filter: GmailFilterInput): Promise<GmailFilter> {
    return this.transport.call<GmailFilter>(
      'settings.filters.create',
      '/gmail/v1/users/me/settings/filters',
      {
        body: filter,
      },
    );
  }

  async listFilters(): Promise<GmailFilter[]> {
    const res = await this.transport.call<{ filter?: GmailFilter[] } | null>(
      'settings.filters.list',
      '/gmail/v1/users/me/settings/filters',
    );
    return res?.filter ?? [];
  }

  /** settings.filters.delete; false when the filter no longer exists (404). */
  async deleteFilter(id: string): Promise<boolean> {
    try {
      await this.transport.call<null>(
        'settings.filters.delete',
        `/gmail/v1/users/me/settings/filters/${encodeURIComponent(id)}`,
        {
          method: 'DELETE',
        },
      );
      return true;
    } catch (err) {
      if (err instanceof GmailApiError && err.status === 404) return false;
      throw err;
    }
  }
}
