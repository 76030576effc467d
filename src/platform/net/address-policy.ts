import { BlockList, isIP } from 'node:net';

type Family = 'ipv4' | 'ipv6';

/** Address ranges an outbound request must not reach unless the operator allows them, by the name a refusal gives. */
const RESERVED: Array<{ name: string; subnets: Array<[string, number, Family]> }> = [
  {
    name: 'loopback',
    subnets: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    name: 'unspecified',
    subnets: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    name: 'private',
    subnets: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ],
  },
  {
    name: 'link-local',
    subnets: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  },
  { name: 'carrier-grade NAT', subnets: [['100.64.0.0', 10, 'ipv4']] },
  {
    name: 'multicast',
    subnets: [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  },
  { name: 'broadcast', subnets: [['255.255.255.255', 32, 'ipv4']] },
];

// A BlockList matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1, ::ffff:7f00:1) against its IPv4 rules,
// so the mapped forms are refused without rules of their own.
const RESERVED_LISTS = RESERVED.map(({ name, subnets }) => {
  const list = new BlockList();
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
  return { name, list };
});

function familyOf(address: string): Family {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** Parses a comma-separated list of CIDRs (a bare address means just that address); throws on a malformed entry. */
export function parseNetworks(networks: string): BlockList {
  const list = new BlockList();
  for (const entry of networks.split(',').map((part) => part.trim())) {
    if (!entry) continue;
    const [address, prefixText, extra] = entry.split('/');
    const version = isIP(address);
    const width = version === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? width : Number(prefixText);
    if (version === 0 || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > width || prefixText === '')
      throw new Error(`"${entry}" is not an address or a CIDR network`);
    list.addSubnet(address, prefix, familyOf(address));
  }
  return list;
}

/** The name of the reserved range `address` falls in, or null when it is public or inside `allowed`. */
export function reservedRange(address: string, allowed: BlockList): string | null {
  const family = familyOf(address);
  if (allowed.check(address, family)) return null;
  return RESERVED_LISTS.find(({ list }) => list.check(address, family))?.name ?? null;
}
