// Validates the service's OpenAPI document as OpenAPI 3, with the parser many client generators and tools use
// (@apidevtools/swagger-parser): a YAML parser accepts what it refuses, such as an unquoted comma inside a flow
// mapping that turns the end of a description into an extra key. Run by .ci/run; by hand:
//   npm ci --prefix tools/openapi && node tools/openapi/validate.js src/main/resources/openapi.yaml
const SwaggerParser = require('@apidevtools/swagger-parser');

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/openapi/validate.js <openapi.yaml>');
  process.exit(2);
}
SwaggerParser.validate(file)
  .then(api => console.log(`${file}: valid OpenAPI ${api.openapi}, ${Object.keys(api.paths).length} paths`))
  .catch(error => {
    console.error(`${file}: not valid OpenAPI: ${error.message}`);
    process.exit(1);
  });
