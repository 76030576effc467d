// Attacks on the network: TCP and UDP to the internet, DNS, raw sockets, and the host itself on
// its loopback address and at the docker bridge gateway. The host side is checked with real
// listeners that must see no connection and no datagram.
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attack, attackBeside, dockerGateway, RUNTIMES, sleep, useAttackService } from './support.js';

let tcpServer: Server;
let udpServer: UdpSocket;
let tcpPort = 0;
let udpPort = 0;
let tcpConnections = 0;
let udpDatagrams = 0;

beforeAll(async () => {
  tcpServer = createServer((socket) => {
    tcpConnections += 1;
    socket.end('hello from the host\n');
  });
  await new Promise<void>((resolve) => tcpServer.listen(0, '0.0.0.0', resolve));
  tcpPort = (tcpServer.address() as { port: number }).port;
  udpServer = createSocket('udp4');
  udpServer.on('message', () => {
    udpDatagrams += 1;
  });
  await new Promise<void>((resolve) => udpServer.bind(0, '0.0.0.0', resolve));
  udpPort = udpServer.address().port;
});
afterAll(async () => {
  await new Promise((resolve) => tcpServer?.close(resolve));
  udpServer?.close();
});

const PYTHON_PROBE = `import os, socket
def f(tcp, udp):
    out = {}
    for host, port in tcp:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(2)
        try:
            s.connect((host, port))
            out["tcp %s:%d" % (host, port)] = "connected: " + s.recv(100).decode()
        except OSError as e:
            out["tcp %s:%d" % (host, port)] = type(e).__name__
        finally:
            s.close()
    for host, port in udp:
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            u.sendto(b"ping", (host, port))
            out["udp %s:%d" % (host, port)] = "sent"
        except OSError as e:
            out["udp %s:%d" % (host, port)] = type(e).__name__
        finally:
            u.close()
    try:
        out["dns"] = socket.getaddrinfo("example.com", 80)[0][4][0]
    except OSError as e:
        out["dns"] = type(e).__name__
    try:
        socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP).close()
        out["raw"] = "opened"
    except OSError as e:
        out["raw"] = type(e).__name__
    try:
        socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close()
        out["packet"] = "opened"
    except (OSError, AttributeError) as e:
        out["packet"] = type(e).__name__
    try:
        s6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        s6.settimeout(2)
        s6.connect(("2606:4700:4700::1111", 53))
        out["tcp6"] = "connected"
    except OSError as e:
        out["tcp6"] = type(e).__name__
    out["interfaces"] = sorted(os.listdir("/sys/class/net"))
    return out
`;

const JS_PROBE = `async function f(tcp, udp) {
  const net = require('net');
  const dgram = require('dgram');
  const dns = require('dns').promises;
  const out = {};
  for (const [host, port] of tcp) {
    out['tcp ' + host + ':' + port] = await new Promise((resolve) => {
      const socket = net.connect(port, host);
      socket.setTimeout(2000, () => { socket.destroy(); resolve('timeout'); });
      socket.on('data', (d) => { socket.destroy(); resolve('connected: ' + d); });
      socket.on('connect', () => setTimeout(() => { socket.destroy(); resolve('connected'); }, 500));
      socket.on('error', (e) => resolve(e.code));
    });
  }
  for (const [host, port] of udp) {
    out['udp ' + host + ':' + port] = await new Promise((resolve) => {
      const socket = dgram.createSocket('udp4');
      socket.send('ping', port, host, (e) => { socket.close(); resolve(e ? e.code : 'sent'); });
    });
  }
  try { out.dns = (await dns.lookup('example.com')).address; } catch (e) { out.dns = e.code; }
  out.interfaces = Object.keys(require('os').networkInterfaces()).sort();
  return out;
}
`;

describe.each(RUNTIMES)('network attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  const targets = () => {
    const gateway = dockerGateway();
    const servicePort = Number(new URL(ctx.service.url).port);
    return {
      tcp: [
        ['127.0.0.1', tcpPort],
        [gateway, tcpPort],
        ['127.0.0.1', servicePort],
        [gateway, servicePort],
        ['1.1.1.1', 53],
        ['1.1.1.1', 80],
        ['8.8.8.8', 443],
      ],
      udp: [
        ['127.0.0.1', udpPort],
        [gateway, udpPort],
        ['1.1.1.1', 53],
      ],
    };
  };

  const expectNoWayOut = async (out: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(out)) {
      if (key.startsWith('tcp')) expect(value, key).not.toMatch(/^connected/);
    }
    // a datagram "sent" on the sandbox's own loopback goes nowhere; off-box ones cannot be sent
    for (const [key, value] of Object.entries(out)) {
      if (key.startsWith('udp') && !key.startsWith('udp 127.0.0.1')) expect(value, key).not.toBe('sent');
    }
    expect(out.dns, 'DNS').not.toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(out.interfaces, 'network interfaces').toEqual(['lo']);
    await sleep(300);
    expect(tcpConnections, 'connections seen by the host listener').toBe(0);
    expect(udpDatagrams, 'datagrams seen by the host listener').toBe(0);
  };

  it.concurrent('python: no TCP, UDP, DNS or raw socket reaches the host or the internet', async () => {
    const { tcp, udp } = targets();
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    const { results } = await attackBeside(ctx, 'python', PYTHON_PROBE, { testCases: [{ args: { tcp, udp }, expected: null }] });
    expect(results[0].error).toBeNull();
    const out = results[0].actual as Record<string, string>;
    await expectNoWayOut(out);
    expect(out.raw).toBe('PermissionError');
    expect(out.packet).toMatch(/^(PermissionError|OSError|AttributeError)$/);
    expect(out.tcp6).not.toBe('connected');
  });

  it.concurrent('javascript: no TCP, UDP or DNS reaches the host or the internet', async () => {
    const { tcp, udp } = targets();
    const { results } = await attack(ctx, 'javascript', JS_PROBE, { testCases: [{ args: { tcp, udp }, expected: null }] });
    expect(results[0].error).toBeNull();
    await expectNoWayOut(results[0].actual as Record<string, string>);
  });

  it.concurrent('python: the sandbox cannot reach the runner API to start more work', async () => {
    const port = Number(new URL(ctx.service.url).port);
    const code = `import urllib.request\ndef f(x):\n    for host in ("127.0.0.1", "${dockerGateway()}", "localhost"):\n        try:\n            urllib.request.urlopen("http://%s:${port}/healthz" % host, timeout=2)\n            return "reached " + host\n        except Exception as e:\n            pass\n    return "unreachable"\n`;
    const { results } = await attack(ctx, 'python', code, { testCases: [{ args: { x: 1 }, expected: 'unreachable' }] });
    expect(results[0]).toMatchObject({ passed: true, error: null });
  });
});
