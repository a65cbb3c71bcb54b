/**
 * Demo mode's own keys for wallet passes, made once per process when first needed, so a pass can
 * be made, signed and checked with no Apple or Google account. Every name in them says what they
 * are: a demo authority that Apple Wallet does not trust, and a demo issuer that Google does not
 * know. A phone refuses such a pass; the tests and the stand-in page check it as the wallets would.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export const DEMO_PASS_TYPE_ID = 'pass.demo.holdfast.tickets';
export const DEMO_TEAM_ID = 'DEMO000000';
export const DEMO_AUTHORITY_NAME = 'Holdfast DEMO pass authority (not Apple: Wallet will not accept these passes)';
export const DEMO_GOOGLE_ISSUER_ID = '0000000000000000000';
export const DEMO_GOOGLE_SERVICE_ACCOUNT = 'demo-wallet-signer@holdfast-demo.invalid';

function rsaKeys(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

function certificate(p: {
  subject: forge.pki.CertificateField[];
  issuer: forge.pki.CertificateField[];
  publicKeyPem: string;
  signingKeyPem: string;
  authority: boolean;
}): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(p.publicKeyPem);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 5 * 365 * 86_400_000);
  cert.setSubject(p.subject);
  cert.setIssuer(p.issuer);
  cert.setExtensions(
    p.authority
      ? [
          { name: 'basicConstraints', cA: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true },
        ],
  );
  cert.sign(forge.pki.privateKeyFromPem(p.signingKeyPem), forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

export interface DemoAppleKeys {
  /** Stands where Apple's WWDR intermediate certificate stands. */
  wwdr: string;
  signerCert: string;
  signerKey: string;
}

let apple: DemoAppleKeys | null = null;

export function demoAppleKeys(): DemoAppleKeys {
  if (apple) return apple;
  const authority = rsaKeys();
  const signer = rsaKeys();
  const authorityName = [
    { name: 'commonName', value: DEMO_AUTHORITY_NAME },
    { name: 'organizationName', value: 'Holdfast demo mode' },
  ];
  const wwdr = certificate({
    subject: authorityName,
    issuer: authorityName,
    publicKeyPem: authority.publicKey,
    signingKeyPem: authority.privateKey,
    authority: true,
  });
  const signerCert = certificate({
    subject: [
      { name: 'commonName', value: `Pass Type ID: ${DEMO_PASS_TYPE_ID}` },
      { name: 'organizationalUnitName', value: DEMO_TEAM_ID },
      { name: 'organizationName', value: 'Holdfast demo mode: not trusted by Apple Wallet' },
    ],
    issuer: authorityName,
    publicKeyPem: signer.publicKey,
    signingKeyPem: authority.privateKey,
    authority: false,
  });
  apple = { wwdr, signerCert, signerKey: signer.privateKey };
  return apple;
}

let google: { privateKey: string; publicKey: string } | null = null;

/** The demo issuer's key pair: its private key signs the stand-in's save links, its public key checks them. */
export function demoGoogleKeys(): { privateKey: string; publicKey: string } {
  google ??= rsaKeys();
  return google;
}
