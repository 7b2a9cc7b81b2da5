// Writes ../postman/collection.json from ../openapi.json with openapi-to-postmanv2 (Postman's own
// converter). Its example values are drawn at random: a seeded Math.random makes a regeneration
// of the same schema give the same collection (bin/clients; random ids are dropped afterwards).
const fs = require("node:fs");
const path = require("node:path");

let seed = 20261122;
Math.random = () => {
  seed = (seed * 16807) % 2147483647;
  return (seed - 1) / 2147483646;
};

const converter = require("openapi-to-postmanv2");
const schema = fs.readFileSync(path.join(__dirname, "..", "openapi.json"), "utf8");
const output = process.argv[2] || path.join(__dirname, "..", "postman", "collection.json");

converter.convert(
  { type: "string", data: schema },
  { folderStrategy: "Tags", parametersResolution: "Example" },
  (error, result) => {
    if (error || !result.result) {
      console.error(error || result.reason);
      process.exit(1);
    }
    fs.writeFileSync(output, JSON.stringify(result.output[0].data, null, 2) + "\n");
  },
);
