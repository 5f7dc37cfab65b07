// The pages a person sees when they open the link of a Send and Wait question: small and
// self-contained (no script, no font or image from elsewhere), readable on a phone, and styled
// after n8n's own forms (their colours, card and button). Everything that comes from the
// workflow or from the person is escaped before it is put into a page.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: unknown): string {
	return String(text ?? '').replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

/** Text with its line breaks kept: escaped, each line break a <br>. */
export function multiline(text: string): string {
	return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

// No script runs on these pages, styles are inline, and a form may only post back to the page's
// own address: even an escaping mistake could not run code or send an answer elsewhere.
export const PAGE_SECURITY_POLICY =
	"default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;padding:24px 16px;background:#fbfcfe;color:#555;font:14px/1.5 'Open Sans',-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif}
main{max-width:448px;margin:0 auto;background:#fff;border:1px solid #dbdfe7;border-radius:8px;box-shadow:0 4px 16px rgba(99,77,255,.06);padding:24px}
h1{margin:0 0 12px;color:#525356;font-size:20px;font-weight:600;line-height:1.3}
.question{margin:0 0 20px;color:#525356;font-size:16px;overflow-wrap:anywhere}
.note{margin:0 0 16px;color:#7e8186}
.problem{margin:0 0 16px;padding:10px 12px;border-radius:6px;background:#fdeced;color:#ea1f30}
label,legend{display:block;margin:0 0 6px;color:#555;font-weight:600}
.field{margin:0 0 18px;border:0;padding:0}
.required{color:#ff6d5a}
input[type=text],input[type=email],input[type=number],input[type=date],select,textarea{width:100%;padding:12px;border:1px solid #dbdfe7;border-radius:6px;color:#525356;font:inherit;background:#fff}
textarea{min-height:120px;resize:vertical}
input:focus,select:focus,textarea:focus{outline:none;border-color:rgb(90,76,194)}
.choice{display:flex;align-items:center;gap:8px;margin:0 0 6px;font-weight:400}
.choice input{width:18px;height:18px;margin:0;accent-color:#ff6d5a}
.error{margin:6px 0 0;color:#ea1f30;font-size:12px}
.buttons{display:flex;flex-direction:column;gap:12px;margin-top:8px}
button{width:100%;min-height:48px;border:1px solid #ff6d5a;border-radius:6px;background:#ff6d5a;color:#fff;font:inherit;font-size:16px;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:#525356;border-color:#dbdfe7}
`;

export interface Page {
	status: number;
	html: string;
}

/** A whole page: the title (also the browser's), then the body inside the card. */
export function page(status: number, title: string, body: string): Page {
	const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
	return { status, html };
}
