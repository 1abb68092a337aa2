import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { type DomainError, domainError, type OutboundUrlPolicy } from '@token-actions/core';
import ipaddr from 'ipaddr.js';
import { errAsync, ResultAsync } from 'neverthrow';

/** One resolved address of a host name. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (node:dns `lookup` with `all: true` by default). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface OutboundGuardConfig {
  /** Allow loopback, private and link-local targets: local development only (WEBHOOK_ALLOW_PRIVATE). */
  readonly allowPrivate: boolean;
  /** Default: the system resolver (node:dns lookup, as a connection would use). */
  readonly resolve?: HostResolver;
}

export interface OutboundGuard extends OutboundUrlPolicy {
  /**
   * A `lookup` for node:http(s) requests: resolves the host, refuses the connection unless every
   * address passes, and hands the socket the address that was checked, so nothing can re-resolve
   * the name to another address between the check and the connect (DNS rebinding).
   */
  readonly lookup: LookupFunction;
}

/** Cloud metadata endpoints, named apart from their ranges so the refusal says what they are. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10)',
  private: 'a private',
  uniqueLocal: 'a unique-local (fc00::/7)',
  reserved: 'a reserved',
};

/**
 * Why `address` may not be a webhook target, or undefined when it is a public unicast address.
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries; anything that
 * is not plain unicast (6to4, Teredo, NAT64, documentation, benchmarking ranges...) is refused too,
 * because those can wrap or stand for an internal address.
 */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  const normal = ip.toNormalizedString();
  const canonical = ip.kind() === 'ipv6' ? ipaddr.IPv6.parse(normal).toString() : ip.toString();
  if (METADATA.has(canonical)) return `a cloud metadata address (${canonical})`;
  const range = ip.range();
  if (range === 'unicast') return undefined;
  return `${RANGE_NAMES[range] ?? `a special-purpose (${range})`} address (${canonical})`;
}

const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })));
    });
  });

/** `[::1]` in a URL is `::1` to the resolver. */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The SSRF guard of outbound webhooks: a URL is allowed when it is http(s) and every address its
 * host resolves to is public unicast, unless `allowPrivate` (local development) lifts the
 * address rule. Addresses are classified by ipaddr.js; names are resolved with node:dns.
 */
export function createOutboundGuard(config: OutboundGuardConfig): OutboundGuard {
  const resolveHost = config.resolve ?? systemResolver;

  async function addressesOf(hostname: string): Promise<readonly ResolvedAddress[]> {
    const host = bareHost(hostname);
    const family = isIP(host);
    if (family !== 0) return [{ address: host, family: family === 6 ? 6 : 4 }];
    const found = await resolveHost(host);
    if (found.length === 0) throw new Error(`${host} has no address`);
    return found;
  }

  /** The addresses of `hostname` when every one is allowed; a refusal naming the first that is not. */
  async function vet(hostname: string): Promise<readonly ResolvedAddress[]> {
    const addresses = await addressesOf(hostname);
    if (!config.allowPrivate) {
      for (const { address } of addresses) {
        const why = refusedAddress(address);
        if (why) throw new RefusedTarget(`webhook URL host ${bareHost(hostname)} resolves to ${why}`);
      }
    }
    return addresses;
  }

  return {
    check(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return errAsync(domainError('INVALID_INPUT', 'webhook URL must be an absolute URL'));
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        return errAsync(domainError('INVALID_INPUT', 'webhook URL must use https'));
      }
      return ResultAsync.fromPromise(
        vet(parsed.hostname).then(() => undefined),
        (error): DomainError =>
          error instanceof RefusedTarget
            ? domainError('INVALID_INPUT', error.message)
            : domainError('INVALID_INPUT', `webhook URL host ${parsed.hostname} cannot be resolved`, {
                cause: error,
              }),
      );
    },

    lookup(hostname, options, callback) {
      vet(hostname).then(
        (addresses) => {
          const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
          const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
          if (options.all) {
            callback(null, usable as ResolvedAddress[]);
            return;
          }
          const first = usable[0];
          if (!first) callback(new Error(`${hostname} has no IPv${wanted} address`), '', 0);
          else callback(null, first.address, first.family);
        },
        (error: Error) => callback(error, '', 0),
      );
    },
  };
}

class RefusedTarget extends Error {}
