/**
 * Webhook signing secrets (design: Secret generation): `whsec_` and the base64 of 32 bytes from
 * the platform's CSPRNG (`crypto.getRandomValues`). A secret is never logged: the subscription
 * keeps it in a closure, never in a field a `console.log` or `JSON.stringify` would reach.
 */

/** Bytes of a generated secret (the design allows 24 to 64). */
const SECRET_BYTES = 32;

/** A fresh `whsec_…` secret. */
export function generateWebhookSecret(): string {
  const bytes = new Uint8Array(SECRET_BYTES);
  globalThis.crypto.getRandomValues(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `whsec_${btoa(binary)}`;
}
