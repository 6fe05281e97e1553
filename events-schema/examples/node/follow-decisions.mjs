// Follows Rayscale's scale decisions with any Kafka client: reads rayscale.decisions, checks each value
// against the shipped JSON Schema, and prints the cluster, the CloudEvents type and what the decision
// changes. Run with the schemas folder of the events-schema jar or repository:
//
//   node follow-decisions.mjs --bootstrap 127.0.0.1:9092 --schemas ../../src/main/resources/schemas
//
// --topic T reads another topic; --limit N stops after N records (else it follows forever);
// --publish-examples DIR first publishes the golden examples of DIR to the topic (for a try-out).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const { values: args } = parseArgs({
  options: {
    bootstrap: { type: 'string', default: '127.0.0.1:9092' },
    schemas: { type: 'string', default: '../../src/main/resources/schemas' },
    topic: { type: 'string', default: 'rayscale.decisions' },
    limit: { type: 'string' },
    'publish-examples': { type: 'string' },
  },
});

// The schemas refer to one another by their $id (https://rayscale.dev/schemas/...): identifiers, not addresses.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const file of readdirSync(args.schemas).filter((name) => name.endsWith('.json'))) {
  ajv.addSchema(JSON.parse(readFileSync(join(args.schemas, file), 'utf8')));
}
const validate = ajv.getSchema('https://rayscale.dev/schemas/scale-decision.v1.schema.json');

const kafka = new Kafka({ clientId: 'follow-decisions', brokers: [args.bootstrap], logLevel: logLevel.WARN });

if (args['publish-examples']) {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: args.topic, numPartitions: 3 }] });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  const dir = args['publish-examples'];
  const messages = readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => {
    const decision = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    const key = `${decision.cluster.namespace}/${decision.cluster.name}`;
    return {
      key,
      value: JSON.stringify(decision),
      headers: {
        ce_specversion: '1.0', ce_id: decision.id, ce_type: 'dev.rayscale.decision.v1',
        ce_source: '//example.com/follow-decisions', ce_time: decision.decidedAt, ce_subject: key, 'content-type': 'application/json',
      },
    };
  });
  await producer.send({ topic: args.topic, messages });
  await producer.disconnect();
}

const limit = args.limit ? Number(args.limit) : Infinity;
const consumer = kafka.consumer({ groupId: `follow-decisions-${process.pid}` });
await consumer.connect();
await consumer.subscribe({ topic: args.topic, fromBeginning: true });
let seen = 0;
let invalid = 0;
await new Promise((resolve) => {
  consumer.run({
    eachMessage: async ({ message }) => {
      const type = message.headers.ce_type?.toString();
      const decision = JSON.parse(message.value.toString('utf8'));
      if (!validate(decision)) {
        invalid += 1;
        console.log(`${message.key} ${type} INVALID ${ajv.errorsText(validate.errors)}`);
      } else {
        const changes = decision.groups.map((g) => `${g.name} ${g.currentReplicas}->${g.targetReplicas}`).join(', ');
        console.log(`${message.key} ${type} ${decision.id}: ${changes} (${decision.reasons.join('; ')})`);
      }
      seen += 1;
      if (seen >= limit) {
        resolve();
      }
    },
  });
});
await consumer.disconnect();
console.log(`follow-decisions: ${seen} decision(s) read, ${invalid} invalid`);
process.exit(invalid > 0 ? 1 : 0);
