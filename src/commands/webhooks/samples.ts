// Sample deliveries for `webhooks trigger`: the payload of service-api.md §6, with the data shapes the
// sandbox sends, so a receiver tested with them is ready for the real thing.
import type {
  ComplianceEventData,
  Delivery,
  EventType,
  FindingEventData,
  ScanEventData,
} from '../../api/webhooks.js';

export function sampleData(event: EventType, now: Date): Record<string, unknown> {
  const scan: ScanEventData = {
    scan_id: 'scn_sample0001',
    connection_alias: 'prod',
    provider: 'aws',
    status: 'completed',
    total_findings: 23,
    critical_count: 2,
    risk_score: 5.4,
  };
  const finding = (severity: 'critical' | 'high'): FindingEventData => ({
    id: `fnd_sample_${severity}`,
    severity,
    title: severity === 'critical' ? 'S3 bucket allows public read' : 'IAM user has no MFA',
    resource:
      severity === 'critical' ? 'arn:aws:s3:::sample-bucket' : 'arn:aws:iam::123456789012:user/sample',
    connection_alias: 'prod',
    scan_id: scan.scan_id,
    status: 'open',
    created_at: now.toISOString(),
  });
  switch (event) {
    case 'scan.completed':
      return { ...scan };
    case 'scan.failed':
      return {
        ...scan,
        status: 'failed',
        total_findings: 0,
        critical_count: 0,
        risk_score: 0,
        error: 'the provider rejected the credentials of connection "prod"',
      };
    case 'finding.critical':
      return { ...finding('critical') };
    case 'finding.high':
      return { ...finding('high') };
    case 'compliance.score_dropped': {
      const data: ComplianceEventData = {
        score: 46,
        previous_score: 100,
        threshold: 70,
        scan_id: scan.scan_id,
        connection_alias: 'prod',
      };
      return { ...data };
    }
  }
}

export function sampleDelivery(event: EventType, workspace: string, now: Date): Delivery {
  return { event, timestamp: now.toISOString(), workspace, data: sampleData(event, now) };
}
