// Copies the static files n8n loads next to the compiled nodes and credentials (SVG icons,
// light and dark, and each node's codex JSON). Each package's entry point is written when the
// build assembles it (tools/packages/assemble.ts).
const { src, dest, series } = require('gulp');

function copyIcons() {
	return src(['nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

function copyCodex() {
	return src(['nodes/**/*.node.json'], { base: '.' }).pipe(dest('dist'));
}

exports['build:assets'] = series(copyIcons, copyCodex);
exports.default = exports['build:assets'];
