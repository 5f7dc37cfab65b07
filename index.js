'use strict';
// The checkout's entry point (after `npm run build`): the combined package's node and credential
// classes from dist/, as package.json lists them for n8n. Each published package has its own
// dist/index.js, written by the build (tools/packages/assemble.ts).
const { basename } = require('node:path');
const { n8n } = require('./package.json');

module.exports = Object.fromEntries(
	[...n8n.nodes, ...n8n.credentials].map((file) => {
		const className = basename(file).split('.')[0];
		return [className, require(`./${file}`)[className]];
	}),
);
