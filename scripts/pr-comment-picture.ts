// docs/pr-comment.png: the Action's pull-request comment as GitHub shows it. The comment's Markdown is made by the
// Action's own code (src/action/comment.ts) from an example scan, rendered to HTML with marked (GitHub Flavored
// Markdown) under CSS close to GitHub's, and photographed by headless Chromium.
//   npx tsx scripts/pr-comment-picture.ts        (needs chromium on PATH; as root it runs with --no-sandbox)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked } from 'marked';
import { commentBody } from '../src/action/comment.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const md = commentBody(
  {
    key: 'prod',
    scanId: 'scn_8f3a21c4',
    connection: 'prod',
    verdict: {
      icon: '❌',
      text: 'Gate failed: scan scn_8f3a21c4 has 2 new or raised findings at or above high: 1 critical, 1 high (--fail-on high)',
    },
    counts: { critical: 1, high: 4, medium: 9, low: 6, info: 2 },
    states: { new: 2, updated: 1, unchanged: 19, fixed: 3 },
    findings: [
      ['critical', 'S3 bucket allows public read', 'arn:aws:s3:::acme-exports', 'new'],
      ['high', 'Security group allows SSH from 0.0.0.0/0', 'sg-0a12b34c56d78e9f0', 'new'],
      [
        'high',
        'RDS instance is not encrypted at rest',
        'arn:aws:rds:eu-west-1:123456789012:db:orders',
        'updated',
      ],
      [
        'high',
        'IAM user has an access key older than 90 days',
        'arn:aws:iam::123456789012:user/deploy',
        'unchanged',
      ],
      [
        'high',
        'CloudTrail is not enabled in all regions',
        'arn:aws:cloudtrail:eu-west-1:123456789012:trail/main',
        'unchanged',
      ],
      ['medium', 'EBS volume is not encrypted', 'vol-0f1e2d3c4b5a69788', 'unchanged'],
      [
        'medium',
        'Lambda function uses a deprecated runtime (nodejs16.x)',
        'arn:aws:lambda:eu-west-1:123456789012:function:thumbs',
        'unchanged',
      ],
      ['medium', 'S3 bucket has no server access logging', 'arn:aws:s3:::acme-static', 'unchanged'],
      ['medium', 'KMS key rotation is off', 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd', 'unchanged'],
      ['medium', 'VPC flow logs are off', 'vpc-0a1b2c3d', 'unchanged'],
    ].map(([severity, title, resource, state], i) => ({ severity, title, resource, id: `f${i}`, state })),
    shown: 22,
    version: '0.1.0',
  },
  { runUrl: 'https://github.com/acme/infra/actions/runs/9876543210', sha: '4f2c9e1b7a3d5c6e8f90' },
);

const css = `
body { margin: 0; padding: 16px; background: #fff; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI",
  "Noto Sans", Helvetica, Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji";
  font-size: 14px; line-height: 1.5; color: #1f2328; }
.box { border: 1px solid #d1d9e0; border-radius: 6px; max-width: 960px; }
.head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0; padding: 8px 16px;
  color: #59636e; display: flex; align-items: center; gap: 8px; }
.head b { color: #1f2328; } .avatar { width: 20px; height: 20px; border-radius: 50%; background: #2da44e; }
.label { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 7px; font-size: 12px; }
.body { padding: 16px; }
.body > :first-child { margin-top: 0; } .body > :last-child { margin-bottom: 0; }
h3 { font-size: 1.25em; font-weight: 600; line-height: 1.25; margin: 0 0 16px; }
p, table, details { margin: 0 0 16px; }
table { border-collapse: collapse; border-spacing: 0; display: block; width: max-content; max-width: 100%; overflow: auto; }
th { font-weight: 600; } th, td { padding: 6px 13px; border: 1px solid #d1d9e0; }
tr { background: #fff; border-top: 1px solid #d1d9e0; } tr:nth-child(2n) { background: #f6f8fa; }
code { padding: .2em .4em; font-size: 85%; background: rgba(129,139,152,.12); border-radius: 6px;
  font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; }
summary { cursor: pointer; margin-bottom: 16px; } sub { font-size: 75%; color: #1f2328; } a { color: #0969da; text-decoration: none; }
`;
const html = `<!doctype html><meta charset="utf-8"><style>${css}</style>
<div class="box"><div class="head"><span class="avatar"></span><b>github-actions</b><span class="label">bot</span>
commented · edited</div><div class="body">${marked.parse(md, { gfm: true, async: false })}</div></div>`;

const dir = mkdtempSync(join(tmpdir(), 'cssctl-picture-'));
try {
  writeFileSync(join(dir, 'comment.html'), html);
  execFileSync(
    'chromium',
    [
      '--headless',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--hide-scrollbars',
      `--screenshot=${join(root, 'docs/pr-comment.png')}`,
      '--window-size=1000,795',
      `file://${join(dir, 'comment.html')}`,
    ],
    { stdio: 'inherit' },
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
