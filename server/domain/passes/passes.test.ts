/**
 * Tickets in the phone's wallet: an Apple Wallet pass made by the product is a zip whose manifest
 * lists every file's SHA-1, whose signature over the manifest verifies with the signing chain, and
 * whose barcode is the ticket's code, with the event, date, venue and seat; only the ticket's holder
 * gets it. The Google Wallet save link's JWT verifies with the configured key and carries the
 * ticket; in demo mode the stand-in checks it as Google would.
 */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { sales, tickets } from '../../db/schema.ts';
import { completeSale } from '../completeSale.ts';
import { DEMO_AUTHORITY_NAME, demoAppleKeys } from './demoKeys.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../../test/harness.ts';
import { testConfig } from '../../config.ts';
import { decodeQrSvg } from '../../test/qrDecode.ts';
import { qrSvg } from '../../views/qrSvg.ts';

const HTML = { accept: 'text/html' };

/** The entries of a zip file (stored or deflated), read from its central directory. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

/** openssl's own check of a detached PKCS#7 signature over `content`, trusting `authority`. */
function signatureVerifies(signature: Buffer, content: Buffer, authority: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-pass-'));
  writeFileSync(join(dir, 'signature'), signature);
  writeFileSync(join(dir, 'manifest.json'), content);
  writeFileSync(join(dir, 'ca.pem'), authority);
  try {
    execFileSync(
      'openssl',
      [
        'smime',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        join(dir, 'signature'),
        '-content',
        join(dir, 'manifest.json'),
        '-CAfile',
        join(dir, 'ca.pem'),
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { stdio: 'pipe' },
    );
    return true;
  } catch {
    return false;
  }
}

const googleKeys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

describe.each(drivers)('wallet passes on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  /** A buyer signed in with one delivered ticket of `ticketTypeId`; its code. */
  async function holder(
    world: TestWorld,
    userId = world.demo.users.notSubscribed.id,
    ticketTypeId = world.demo.tickets.jazzGeneral,
  ) {
    const v = new Visitor(world.app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    expect((await v.add({ [ticketTypeId]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await world.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    expect((await world.database.db.transaction((tx) => completeSale(tx, sale!.id, world.clock.now))).booked).toBe(
      true,
    );
    expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    const [ticket] = await world.database.db.select().from(tickets).where(eq(tickets.saleId, sale!.id));
    return { v, code: ticket!.code, reference };
  }

  it('makes a signed pass whose manifest, signature and barcode check out, for the ticket’s holder only', async () => {
    const { v, code, reference } = await holder(w);
    const wallet = await v.request({ method: 'GET', url: '/account/wallet/', headers: HTML });
    expect(wallet.body).toContain(`href="/account/wallet/passes/${code}.pkpass"`);
    expect(wallet.body).toContain('Add to Apple Wallet');
    expect(wallet.body).toContain('signed by a demo authority');

    const res = await v.request({ method: 'GET', url: `/account/wallet/passes/${code}.pkpass` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    const files = unzip(res.rawPayload);
    expect([...files.keys()]).toEqual(
      expect.arrayContaining(['pass.json', 'manifest.json', 'signature', 'icon.png', 'icon@2x.png', 'logo.png']),
    );

    // The manifest names every other file with its SHA-1, and nothing else.
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, string>;
    const hashed = [...files.keys()].filter((name) => name !== 'manifest.json' && name !== 'signature');
    expect(Object.keys(manifest).sort()).toEqual(hashed.sort());
    for (const name of hashed)
      expect(manifest[name], name).toBe(createHash('sha1').update(files.get(name)!).digest('hex'));

    // The signature is over the manifest, by the pass certificate the (demo) authority issued.
    const { wwdr } = demoAppleKeys();
    expect(wwdr).toContain('BEGIN CERTIFICATE');
    expect(signatureVerifies(files.get('signature')!, files.get('manifest.json')!, wwdr)).toBe(true);
    const tampered = Buffer.from(
      files
        .get('manifest.json')!
        .toString('utf8')
        .replace(/"[0-9a-f]{40}"/, `"${'0'.repeat(40)}"`),
    );
    expect(signatureVerifies(files.get('signature')!, tampered, wwdr)).toBe(false);

    // The barcode is the ticket's code; the pass names the event, date, venue, seat and holder, and says it is a demo.
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    expect(pass.barcodes[0]).toMatchObject({ message: code, format: 'PKBarcodeFormatQR' });
    // Drawn as Wallet draws it (a QR code of the message), a door scanner reads the ticket's code back.
    expect(decodeQrSvg(qrSvg(pass.barcodes[0].message, 'pass'))).toBe(code);
    expect(pass.serialNumber).toBe(code);
    expect(pass.eventTicket.primaryFields[0]).toMatchObject({ label: 'Event', value: 'Summer Jazz on the Quay' });
    expect(pass.eventTicket.secondaryFields.map((f: { key: string }) => f.key)).toEqual(['date', 'seat']);
    expect(pass.eventTicket.secondaryFields[1].value).toBe('General admission');
    expect(pass.eventTicket.auxiliaryFields[0].label).toBe('Venue');
    expect(pass.eventTicket.backFields.find((f: { key: string }) => f.key === 'order').value).toBe(reference);
    expect(pass.description).toMatch(/^DEMO ticket for Summer Jazz on the Quay/);

    // Another buyer, a browser not signed in, an unknown code: not found.
    const other = new Visitor(w.app);
    expect(
      (await other.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.subscribedDark.id}` }))
        .statusCode,
    ).toBe(303);
    expect((await other.request({ method: 'GET', url: `/account/wallet/passes/${code}.pkpass` })).statusCode).toBe(404);
    expect(
      (await new Visitor(w.app).request({ method: 'GET', url: `/account/wallet/passes/${code}.pkpass` })).statusCode,
    ).toBe(404);
    expect((await v.request({ method: 'GET', url: '/account/wallet/passes/%3Cscript%3E.pkpass' })).statusCode).toBe(
      404,
    );
    expect((await v.request({ method: 'GET', url: `/account/wallet/passes/${code}.zip` })).statusCode).toBe(404);
  });

  it('the demo authority says what it is', () => {
    const subject = execFileSync('openssl', ['x509', '-noout', '-subject'], { input: demoAppleKeys().wwdr }).toString();
    expect(subject).toContain(DEMO_AUTHORITY_NAME.slice(0, 30));
  });

  it('in demo mode the save link opens the stand-in, which checks the JWT and shows the ticket', async () => {
    const { v, code } = await holder(w);
    const wallet = await v.request({ method: 'GET', url: '/account/wallet/', headers: HTML });
    const link = new RegExp(
      `href="(/sandbox/google-wallet/save/[^"]+)"[^>]*>Save to Google Wallet<span class="visually-hidden">: ticket ${code}`,
    ).exec(wallet.body)?.[1];
    expect(link).toBeDefined();
    const page = await new Visitor(w.app).request({ method: 'GET', url: link!, headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Saved to Google Wallet (demo stand-in)');
    expect(page.body).toContain('Summer Jazz on the Quay');
    // The QR code the stand-in shows reads back as the ticket's code.
    const svg = /<svg[^>]*class="qr"[\s\S]*?<\/svg>/.exec(page.body)?.[0] ?? '';
    expect(decodeQrSvg(svg)).toBe(code);
    // A token changed by one character, or signed by another key, is refused.
    const token = link!.split('/').at(-1)!;
    const [head, body, sig] = token.split('.');
    const changed = `${head}.${body}.${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(
      (
        await new Visitor(w.app).request({
          method: 'GET',
          url: `/sandbox/google-wallet/save/${changed}`,
          headers: HTML,
        })
      ).statusCode,
    ).toBe(400);
    const forged = jwt.sign(jwt.decode(token) as object, googleKeys.privateKey, { algorithm: 'RS256' });
    expect(
      (await new Visitor(w.app).request({ method: 'GET', url: `/sandbox/google-wallet/save/${forged}`, headers: HTML }))
        .statusCode,
    ).toBe(400);
  });

  it('keyed for Google, the save link is Google’s and its JWT verifies with the configured key', async () => {
    const keyed = await openWorld(driver, {
      walletPasses: {
        apple: null,
        google: {
          issuerId: '3388000000012345678',
          serviceAccount: 'wallet@holdfast-prod.iam.gserviceaccount.com',
          privateKey: googleKeys.privateKey,
        },
      },
      publicUrl: 'https://tickets.holdfast.example',
    });
    try {
      const { v, code } = await holder(keyed);
      const wallet = await v.request({ method: 'GET', url: '/account/wallet/', headers: HTML });
      const token = /href="https:\/\/pay\.google\.com\/gp\/v\/save\/([^"]+)"/.exec(wallet.body)?.[1];
      expect(token).toBeDefined();
      const claims = jwt.verify(token!, googleKeys.publicKey, { algorithms: ['RS256'] }) as jwt.JwtPayload;
      expect(claims).toMatchObject({
        iss: 'wallet@holdfast-prod.iam.gserviceaccount.com',
        aud: 'google',
        typ: 'savetowallet',
        origins: ['https://tickets.holdfast.example'],
      });
      const object = claims.payload.eventTicketObjects[0];
      expect(object).toMatchObject({
        id: `3388000000012345678.ticket-${code}`,
        state: 'ACTIVE',
        barcode: { type: 'QR_CODE', value: code },
      });
      const eventClass = claims.payload.eventTicketClasses[0];
      expect(object.classId).toBe(eventClass.id);
      expect(eventClass.eventName.defaultValue.value).toBe('Summer Jazz on the Quay');
      expect(typeof eventClass.dateTime.start).toBe('string');
      expect(eventClass.venue.name.defaultValue.value).not.toBe('');
      // Keyed Apple is absent here, and demo mode still signs passes with its demo keys.
      expect(wallet.body).toContain('Add to Apple Wallet');
    } finally {
      await keyed.close();
    }
  });

  it('without keys and outside demo mode no pass or save link is offered', async () => {
    const live = await openWorld(driver, { demo: false, walletPasses: testConfig().walletPasses });
    try {
      const res = await new Visitor(live.app).request({ method: 'GET', url: '/account/wallet/passes/ABCDEFGH.pkpass' });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Apple Wallet passes are not set up on this server.');
      expect(
        (await new Visitor(live.app).request({ method: 'GET', url: '/sandbox/google-wallet/save/x.y.z' })).statusCode,
      ).toBe(404);
    } finally {
      await live.close();
    }
  });
});
