// openapi.json → src/api/schema.d.ts. A $ref whose target the document lacks is typed `unknown`
// (with a warning) instead of failing the whole generation.
import { readFile, writeFile } from "node:fs/promises";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";

const [input = "openapi.json", output = "src/api/schema.d.ts"] = process.argv.slice(2);
const document = JSON.parse(await readFile(input, "utf8"));

function resolves(ref) {
  if (!ref.startsWith("#/")) return true;
  let node = document;
  for (const part of ref.slice(2).split("/")) {
    node = node?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
    if (node === undefined) return false;
  }
  return true;
}

function dropDanglingRefs(node, path) {
  if (Array.isArray(node)) return node.map((item, i) => dropDanglingRefs(item, `${path}/${i}`));
  if (node === null || typeof node !== "object") return node;
  if (typeof node.$ref === "string" && !resolves(node.$ref)) {
    console.warn(`warning: ${path} refers to missing ${node.$ref}; typed as unknown`);
    return {};
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, dropDanglingRefs(v, `${path}/${k}`)]));
}

const ast = await openapiTS(dropDanglingRefs(document, "#"));
// The same text as the openapi-typescript CLI writes, so either can check the other.
await writeFile(output, COMMENT_HEADER + astToString(ast));
console.log(`${input} → ${output}`);
