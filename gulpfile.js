// Copies the static files n8n loads next to the compiled nodes and credentials (SVG icons,
// light and dark, and each node's codex JSON), and writes the published entry point.
const { writeFileSync, readFileSync } = require('node:fs');
const { src, dest, series } = require('gulp');

function copyIcons() {
	return src(['nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

function copyCodex() {
	return src(['nodes/**/*.node.json'], { base: '.' }).pipe(dest('dist'));
}

// index.js (the checkout's entry point) requires ./dist/...; the published package holds
// only dist, so its entry point is the same file with paths relative to dist.
function writeEntryPoint(done) {
	const source = readFileSync('index.js', 'utf8');
	writeFileSync('dist/index.js', source.replaceAll("'./dist/", "'./"));
	done();
}

exports['build:assets'] = series(copyIcons, copyCodex, writeEntryPoint);
exports.default = exports['build:assets'];
