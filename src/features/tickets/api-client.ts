import { apiFetch, ensureSession } from '../../lib/identity/session.ts';
import { createTicketingClient, PROXY_PATH, type ProxyUpload } from '../../lib/ticketing/ticketing-service.ts';

/**
 * The customer area's ticketing client (browser): JSON calls through `apiFetch` (bearer token,
 * one renewal on 401), uploads through XMLHttpRequest for its upload progress events.
 */

function send(token: string, body: FormData, onProgress: (loaded: number, total: number) => void, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', PROXY_PATH);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(e.loaded, e.total); };
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
    xhr.onerror = () => reject(new Error('Failed to fetch'));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

const upload: ProxyUpload = async (body, onProgress, signal, headers) => {
  const first = await send((await ensureSession()).accessToken, body, onProgress, signal, headers);
  if (first.status !== 401) return first;
  return send((await ensureSession({ forceRenew: true })).accessToken, body, onProgress, signal, headers);
};

export const ticketing = createTicketingClient({ send: (init) => apiFetch(PROXY_PATH, init), upload });
