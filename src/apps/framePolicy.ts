/**
 * What a host puts on the frame of a UI resource (spec: Host Behavior, Security Implications §4):
 * the Content-Security-Policy built from the declared domains (the restrictive default when
 * none are declared), the `allow` attribute from the declared permissions, and the HTML with
 * that policy in a `<meta>` tag for a `srcdoc` frame. Pure strings; no DOM.
 */
import type { AppCsp, AppPermissions, AppResource } from './appResourceCheck.js';

/** The spec's policy for a resource that declares no CSP: nothing from the network. */
const RESTRICTIVE_DEFAULT = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The CSP for a UI: the declared domains by directive (resource domains for scripts, styles,
 * images, fonts, media; connect domains; frame domains or `frame-src 'none'`; base-URI domains
 * or `base-uri 'self'`), `object-src 'none'` always. Without a declared CSP: the restrictive
 * default. The domains are the checked origins of {@link AppResource.csp}, so no entry adds a
 * directive.
 */
export function appContentSecurityPolicy(csp: AppCsp | undefined): string {
  if (csp === undefined) return RESTRICTIVE_DEFAULT;
  const list = (domains: readonly string[] | undefined): string =>
    domains !== undefined && domains.length > 0 ? ` ${domains.join(' ')}` : '';
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline'${resources}`,
    `style-src 'self' 'unsafe-inline'${resources}`,
    `connect-src 'self'${list(csp.connectDomains)}`,
    `img-src 'self' data:${resources}`,
    `font-src 'self'${resources}`,
    `media-src 'self' data:${resources}`,
    `frame-src ${list(csp.frameDomains).trim() || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains).trim() || "'self'"}`,
  ].join('; ');
}

/**
 * The iframe `allow` attribute (Permissions Policy) for the permissions a UI asks for, e.g.
 * `"camera; clipboard-write"`; `""` for none. A host grants only what it wants to: pass the
 * subset it approves.
 */
export function appPermissionsPolicy(permissions: AppPermissions | undefined): string {
  if (permissions === undefined) return '';
  const features: string[] = [];
  if (permissions.camera !== undefined) features.push('camera');
  if (permissions.microphone !== undefined) features.push('microphone');
  if (permissions.geolocation !== undefined) features.push('geolocation');
  if (permissions.clipboardWrite !== undefined) features.push('clipboard-write');
  return features.join('; ');
}

/**
 * The HTML of a UI resource with its CSP as the document's first element
 * (`<meta http-equiv="Content-Security-Policy">`, after the doctype when there is one), for an
 * `<iframe sandbox="allow-scripts" srcdoc>`: the policy then applies to every script of the
 * document, including ones before its own `<head>`.
 */
export function appFrameDocument(resource: Pick<AppResource, 'html' | 'csp'>): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(
    appContentSecurityPolicy(resource.csp),
  )}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(resource.html);
  if (doctype === null) return `${meta}${resource.html}`;
  return `${doctype[0]}${meta}${resource.html.slice(doctype[0].length)}`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
