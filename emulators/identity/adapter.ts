// oidc-provider's storage for sessions, grants, codes and refresh tokens: an unbounded in-memory map
// whose entries expire with their TTL (the built-in adapter is an LRU of 1000 entries that silently
// evicts sessions in long e2e runs). One MemoryStore per emulator, so test instances share nothing.

interface Entry {
  payload: Record<string, unknown>;
  expiresAt: number;
}

export class MemoryStore {
  readonly entries = new Map<string, Entry>();
  private writes = 0;

  key(model: string, id: string): string {
    return `${model}:${id}`;
  }

  get(key: string): Record<string, unknown> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  set(key: string, payload: Record<string, unknown>, expiresIn: number): void {
    this.entries.set(key, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY });
    if (++this.writes % 500 === 0) this.sweep();
  }

  /** Drops every expired entry. */
  sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  /** The ids of a model's live entries whose payload matches. */
  idsWhere(model: string, match: (payload: Record<string, unknown>) => boolean): string[] {
    const prefix = `${model}:`;
    const ids: string[] = [];
    for (const key of this.entries.keys()) {
      if (!key.startsWith(prefix)) continue;
      const payload = this.get(key);
      if (payload && match(payload)) ids.push(key.slice(prefix.length));
    }
    return ids;
  }
}

/** The adapter class oidc-provider instantiates once per model name. */
export function memoryAdapter(store: MemoryStore) {
  return class MemoryAdapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    async upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void> {
      store.set(store.key(this.model, id), payload, expiresIn);
      if (payload.grantId) {
        // Index for revokeByGrantId.
        const key = store.key('grant-index', `${payload.grantId as string}:${this.model}:${id}`);
        store.set(key, { model: this.model, id }, expiresIn);
      }
      if (payload.userCode) store.set(store.key(`${this.model}:userCode`, payload.userCode as string), { id }, expiresIn);
      if (payload.uid) store.set(store.key(`${this.model}:uid`, payload.uid as string), { id }, expiresIn);
    }

    async find(id: string): Promise<Record<string, unknown> | undefined> {
      return store.get(store.key(this.model, id));
    }

    async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
      const ref = store.get(store.key(`${this.model}:userCode`, userCode));
      return ref && this.find(ref.id as string);
    }

    async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
      const ref = store.get(store.key(`${this.model}:uid`, uid));
      return ref && this.find(ref.id as string);
    }

    async consume(id: string): Promise<void> {
      const payload = store.get(store.key(this.model, id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      store.entries.delete(store.key(this.model, id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const prefix = store.key('grant-index', `${grantId}:`);
      for (const key of [...store.entries.keys()]) {
        if (!key.startsWith(prefix)) continue;
        const ref = store.entries.get(key)?.payload;
        store.entries.delete(key);
        if (ref) store.entries.delete(store.key(ref.model as string, ref.id as string));
      }
    }
  };
}
