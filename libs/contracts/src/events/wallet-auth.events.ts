import { defineCatalogue, defineEvent } from './catalogue';

const service = 'wallet-auth';
const internal = <const N extends string>(name: N, description: string) => defineEvent({ service, name, version: 1, visibility: 'internal', description });

/**
 * The wallet-auth service's events (stream `EmbeddedWallet:<accountId>`): all internal. They hold sealed secrets
 * (mnemonics, delegated private keys) and key material, and the published API has no webhook for wallet credentials,
 * sessions or delegated keys, so nothing leaves the service.
 */
export const WALLET_AUTH_EVENTS = defineCatalogue(service, [
  internal('WalletProvisioned', 'An Embedded Wallet came into being for an internal account (its sealed mnemonic, its owner).'),
  internal('WalletCredentialAdded', 'A credential was added to the wallet.'),
  internal('WalletCredentialRevoked', 'A credential was removed; its sessions ended with it.'),
  internal('WalletCredentialContactChanged', "An OTP credential follows a change of the customer's email or phone."),
  internal('WalletOtpIssued', 'A one-time password was issued for an OTP credential (its hash only).'),
  internal('WalletOtpAttemptFailed', 'A wrong or undecryptable OTP was submitted.'),
  internal('WalletOtpConsumed', 'The current OTP was used (or burned by failures).'),
  internal('WalletChallengeIssued', 'A challenge to sign (a signed retry, a verification token or a passkey challenge) was issued.'),
  internal('WalletChallengeAnswered', 'A challenge was answered and cannot be used again.'),
  internal('WalletSessionOpened', 'A session key may sign for the wallet until its expiry.'),
  internal('WalletSessionRevoked', 'A session was ended before its expiry.'),
  internal('WalletPasskeyUsed', 'A passkey assertion was verified; its signature counter.'),
  internal('WalletExported', "The wallet's mnemonic was sealed to a one-time client key."),
  internal('WalletDelegatedKeyCreated', 'A delegated key for a card funding source was made, PENDING (its private key sealed).'),
  internal('WalletDelegatedKeyActivated', 'A PENDING delegated key became ACTIVE: it signs card pulls of its funding source.'),
  internal('WalletDelegatedKeyRevoked', 'An ACTIVE delegated key was revoked: it signs nothing more.'),
]);
