import { expect } from 'chai';
import type { ApiResponse } from '../support/test-api';

const PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'code', 'requestId'];

/** Traces of internals that must never reach a client (decisions 0001, 0002). */
const INTERNALS = [/\n\s+at /, /node_modules/, /\.[jt]s:\d+/, /\bError:/, /Unexpected token/, /\/work\//, /TypeError|ReferenceError/];

export const expectNoInternals = (res: ApiResponse): void => {
  for (const pattern of INTERNALS) expect(res.text, `body leaks ${pattern}`).not.to.match(pattern);
};

/**
 * The response is an RFC 9457 problem of decision 0002 with this status and code: its members and no
 * others (`details` only on VALIDATION_FAILED; `extensions`, the members a route adds, such as the
 * `components` of /readyz), the content type, and the request id of the header.
 */
export const expectProblem = (res: ApiResponse, status: number, code: string, extensions: readonly string[] = []): any => {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/problem\+json\b/);
  const body = res.body;
  expect(body, res.text).to.be.an('object');
  expect(body.code, res.text).to.equal(code);
  const members = [...(code === 'VALIDATION_FAILED' ? [...PROBLEM_MEMBERS, 'details'] : PROBLEM_MEMBERS), ...extensions];
  expect(Object.keys(body)).to.have.members(members);
  expect(body.type).to.be.a('string').that.is.not.empty;
  expect(body.title).to.be.a('string').that.is.not.empty;
  expect(body.detail).to.be.a('string').that.is.not.empty;
  expect(body.status).to.equal(status);
  expect(body.requestId).to.be.a('string').that.is.not.empty;
  expect(body.requestId).to.equal(res.headers.get('x-request-id'));
  if (code === 'VALIDATION_FAILED') {
    expect(body.details).to.be.an('array').that.is.not.empty;
    for (const detail of body.details) {
      expect(Object.keys(detail)).to.have.members(['path', 'message']);
      expect(detail.path).to.be.a('string').that.is.not.empty;
      expect(detail.message).to.be.a('string').that.is.not.empty;
    }
  }
  expectNoInternals(res);
  return body;
};

/** A 400 VALIDATION_FAILED whose details name exactly these paths, one entry each. */
export const expectInvalid = (res: ApiResponse, paths: readonly string[]): void => {
  const body = expectProblem(res, 400, 'VALIDATION_FAILED');
  const given = (body.details as { path: string }[]).map((d) => d.path).sort();
  expect(given, res.text).to.deep.equal([...paths].sort());
};
