// Validates the deploy recipes: node validate.mjs <deploy dir>. Prints one line per problem and exits 1 when
// there is any, else prints what it checked and exits 0.
// - Kubernetes: every document of every *.yaml under kubernetes/ is validated with kubernetes-models, whose
//   validators are generated from the Kubernetes API's own OpenAPI document (required fields, types, enums,
//   formats); a kind the package does not know is a problem.
// - Containerfile: dockerfile-utils (the linter behind the VS Code Docker extension) reports syntax and
//   instruction errors; on top of it, the rules this project promises (a JRE base, a non-root user, a
//   health check on /health, COPY sources that exist).
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import yaml from "js-yaml";
import * as dockerfileUtils from "dockerfile-utils";
import { DockerfileParser } from "dockerfile-ast";

const deploy = resolve(process.argv[2] ?? "deploy");
const repo = resolve(deploy, "..");
const problems = [];
const checked = [];

async function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const path = group === "" ? `kubernetes-models/${version}/${kind}` : `kubernetes-models/${group}/${version}/${kind}`;
  try {
    return (await import(path))[kind];
  } catch {
    return undefined;
  }
}

const k8sDir = join(deploy, "kubernetes");
for (const file of readdirSync(k8sDir).filter((f) => f.endsWith(".yaml")).sort()) {
  const docs = yaml.loadAll(readFileSync(join(k8sDir, file), "utf8")).filter((d) => d != null);
  for (const doc of docs) {
    const where = `kubernetes/${file}: ${doc.kind ?? "?"} ${doc.metadata?.name ?? "?"}`;
    if (typeof doc.apiVersion !== "string" || typeof doc.kind !== "string") {
      problems.push(`${where}: no apiVersion or kind`);
      continue;
    }
    const Model = await modelFor(doc.apiVersion, doc.kind);
    if (Model === undefined) {
      problems.push(`${where}: unknown kind ${doc.kind} in ${doc.apiVersion}`);
      continue;
    }
    try {
      new Model(doc).validate();
      checked.push(`${where}: valid ${doc.apiVersion} ${doc.kind}`);
    } catch (e) {
      for (const err of e.errors ?? [{ instancePath: "", message: e.message }]) {
        problems.push(`${where}: ${err.instancePath || "/"} ${err.message ?? err.keyword}`);
      }
    }
  }
}

const containerfile = join(deploy, "container", "Containerfile");
const text = readFileSync(containerfile, "utf8");
for (const d of dockerfileUtils.validate(text, {})) {
  problems.push(`container/Containerfile:${d.range.start.line + 1}: ${d.message}`);
}
const instructions = DockerfileParser.parse(text).getInstructions();
const args = (i) => i.getArguments().map((a) => a.getValue());
const froms = instructions.filter((i) => i.getKeyword() === "FROM");
const finalStage = instructions.slice(instructions.lastIndexOf(froms.at(-1)));
if (!froms.length || !/jre/.test(args(froms.at(-1))[0] ?? "")) {
  problems.push("container/Containerfile: the final stage is not based on a JRE image");
}
const user = finalStage.filter((i) => i.getKeyword() === "USER").at(-1);
if (!user || /^(0|root)(:|$)/.test(args(user)[0])) {
  problems.push("container/Containerfile: the final stage does not run as a non-root USER");
}
const health = finalStage.find((i) => i.getKeyword() === "HEALTHCHECK");
if (!health || !args(health).join(" ").includes("/health")) {
  problems.push("container/Containerfile: no HEALTHCHECK on /health");
}
for (const copy of instructions.filter((i) => i.getKeyword() === "COPY")) {
  if (copy.getFlags().some((f) => f.getName() === "from")) continue; // from an earlier stage, not the context
  for (const src of args(copy).slice(0, -1)) {
    if (!existsSync(join(repo, src))) {
      problems.push(`container/Containerfile:${copy.getRange().start.line + 1}: COPY source ${src} is not in the repository`);
    }
  }
}
checked.push(`container/Containerfile: ${instructions.length} instructions, ${froms.length} stages`);

for (const line of checked) console.log(`ok  ${line}`);
for (const line of problems) console.log(`BAD ${line}`);
process.exit(problems.length ? 1 : 0);
