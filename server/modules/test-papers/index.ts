// The test-mgmt module's public face: its routes and service, and the PDF printer of papers.
export { paperPrinter } from './paper-printer.js';
export { createPdfPrinter, type PdfPrinter } from './pdf.js';
export { testsRoutes } from './tests.routes.js';
export { type TestsService, testsService } from './tests.service.js';
