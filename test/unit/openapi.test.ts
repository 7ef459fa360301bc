import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../src/api/openapi.js';
import { OPERATIONS } from '../../src/api/operations.js';

const doc = buildOpenApi('1.2.3') as any;

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.2.3');
  });

  it('describes every operation of the table, with its auth', () => {
    for (const op of OPERATIONS) {
      const item = doc.paths[op.path][op.method.toLowerCase()];
      expect(item.operationId).toBe(op.id);
      expect(item.security === undefined).toBe(op.auth === 'bearer');
      expect(Object.keys(item.responses)).toContain('200');
    }
  });

  it('keeps the spec’s exact field names', () => {
    const { schemas } = doc.components;
    expect(Object.keys(schemas.CreateInvoiceRequest.properties)).toEqual(
      expect.arrayContaining(['method', 'product_fisical', 'ip_payer', 'total_price_cents', 'postback_url', 'payer', 'card', 'items']),
    );
    expect(Object.keys(schemas.Enterprise.properties)).toEqual(expect.arrayContaining(['amount_invoices_competicion', 'blocked_sake', 'create_at', 'update_at']));
    expect(schemas.Transaction.properties.enterprise).toEqual({ $ref: '#/components/schemas/Enterprise' });
    expect(schemas.Transaction.required).toEqual(expect.arrayContaining(['secureId', 'financial_movements', 'card_associate', 'timeline']));
  });

  it('documents the 401 challenge and the error body', () => {
    const create = doc.paths['/api/v2/invoices'].post;
    expect(create.responses['401'].headers['WWW-Authenticate']).toBeDefined();
    expect(create.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(create.parameters.map((p: any) => p.name)).toContain('Idempotency-Key');
  });
});
