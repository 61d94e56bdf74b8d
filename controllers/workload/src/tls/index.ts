// The workload's TLS as the reconcile uses it (reconcile/tls.ts, its TLS step, and the decision of what to render).
// Nothing in tls/ holds a client. Rendering and the observer, which the package exports to the tests, import the pure
// pieces they need from their own files instead (member-config.ts, x509/client-ca-config.ts, ca-rotation.ts,
// quorum-steps.ts): through this index they would load certificate issuance (@peculiar/x509 and reflect-metadata).
//   the member certificate the controller issues: member-secret.ts (the member Secret judged, its next content),
//     ca-secret.ts (the signing CA read and checked), renewal.ts, secret-data.ts, issue.ts, keys.ts,
//     certificate-names.ts, pem.ts
//   the steps of a serving ensemble: ca-rotation.ts (a new CA in three rolls), quorum-steps.ts (plain to TLS)
//   what TLS renders into a member: member-config.ts
//   cert-manager/: the Certificate requested, and the Secret cert-manager writes judged
//   x509/: clients authenticated by certificate: the client CA Secret checked, and what it renders
export { CA_ROTATION_ANNOTATION, describeCaRotation, rotationStep, type CaRotationStep } from './ca-rotation.js';
export { ownCaRenewalTime, readCa } from './ca-secret.js';
export { buildCertificate } from './cert-manager/certificate.js';
export { issuedSecretVerdict } from './cert-manager/issued-secret.js';
export { memberCertificateNames } from './certificate-names.js';
export type { SigningCa } from './issue.js';
export { isSteady, judgeMemberSecret, nextMemberSecretData, tlsStateOf, writeReason, type MemberSecretContext, type TlsState } from './member-secret.js';
export { parsed, trustBundleHash } from './pem.js';
export { decideQuorumTls, describeQuorumTls, liveQuorumTls, QUORUM_TLS_ANNOTATION } from './quorum-steps.js';
export { issueCaSecretData } from './secret-data.js';
export { readClientCa } from './x509/client-ca-secret.js';
