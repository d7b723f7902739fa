#!/usr/bin/env node
/**
 * mcp-live example skills server: the skills of examples/skillsCatalog.ts over stdio, on the
 * official @modelcontextprotocol/server and its Skills extension (SEP-2640).
 *
 *   node build/examples/skills-server.js     stdio: newline-delimited JSON-RPC on stdin/stdout
 *
 * Two skills per `skills/list` page, `directoryRead` declared, every result public for 60 s.
 * It exits when stdin closes. Diagnostics go to stderr only.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { SKILLS_SERVER_NAME, loadSkillsCatalog, skillsServerFactory } from './skillsCatalog.js';

const catalog = await loadSkillsCatalog();
serveStdio(skillsServerFactory(catalog), {
  onerror: (error) => process.stderr.write(`[${SKILLS_SERVER_NAME}] error: ${error.message}\n`),
});
process.stderr.write(`[${SKILLS_SERVER_NAME}] serving ${catalog.entries.length} skills on stdio\n`);
