// The diplomas screens: a person's diplomas (/diploma, /diploma/teacher) and the public page a
// diploma's QR code opens (/diploma/verificare/{code}).
export { MyDiplomasPage } from './MyDiplomasPage.js';
export { VerifyDiplomaPage } from './VerifyDiplomaPage.js';
