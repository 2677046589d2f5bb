// macOS and Windows in the code, on a Linux machine: process.platform faked for each. Config and state folders
// by each platform's rules, the file store's protection said plainly on Windows (no POSIX modes there), report
// paths with drive letters and backslashes, saved webhook deliveries with names Windows accepts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir } from '../../src/core/config.js';
import { fileStoreProtection } from '../../src/core/credentials.js';
import { readableByOthers } from '../../src/core/files.js';
import { tokenSourceText } from '../../src/commands/auth/status.js';
import { checkDestinations, destinationKey, parseReportSpec } from '../../src/report/report-spec.js';
import { savedFileName } from '../../src/commands/webhooks/saved.js';

const real = Object.getOwnPropertyDescriptor(process, 'platform')!;
const fake = (platform: NodeJS.Platform) => Object.defineProperty(process, 'platform', { value: platform });

describe.each(['linux', 'darwin', 'win32'] as const)('on %s', (platform) => {
  beforeEach(() => fake(platform));
  afterEach(() => Object.defineProperty(process, 'platform', real));

  it('the config folder (which also holds the state files and the file store) follows the platform', () => {
    const dir = configDir({
      HOME: '/home/u',
      USERPROFILE: 'C:\\Users\\u',
      APPDATA: 'C:\\Users\\u\\AppData\\Roaming',
    });
    expect(dir).toBe(
      {
        linux: '/home/u/.config/cssctl',
        darwin: '/home/u/Library/Preferences/cssctl',
        win32: 'C:\\Users\\u\\AppData\\Roaming\\cssctl',
      }[platform],
    );
    // CSSCTL_CONFIG_DIR wins everywhere, as given.
    expect(configDir({ CSSCTL_CONFIG_DIR: 'D:\\cfg', APPDATA: 'C:\\x', HOME: '/h' })).toBe('D:\\cfg');
  });

  it('XDG_CONFIG_HOME is read on Linux and macOS; Windows keeps %APPDATA%', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/u', APPDATA: 'C:\\R' })).toBe(
      platform === 'win32' ? 'C:\\R\\cssctl' : '/xdg/cssctl',
    );
  });

  it('the file store says how it is protected: mode 0600, or on Windows that no mode is set', () => {
    expect(fileStoreProtection()).toBe(
      platform === 'win32'
        ? 'no file mode on Windows: only the permissions of your user profile folder protect it'
        : 'mode 0600',
    );
    expect(tokenSourceText('file')).toBe(platform === 'win32' ? `file (${fileStoreProtection()})` : 'file');
    expect(tokenSourceText('keychain')).toBe('keychain');
    expect(tokenSourceText('env')).toBe('env (CSSCTL_TOKEN)');
  });

  it('a folder is never called "readable by others" from POSIX mode bits on Windows', () => {
    // /tmp is 1777 on Linux: readable by others there, and no POSIX modes are read on Windows.
    expect(readableByOthers('/tmp')).toBe(platform !== 'win32');
  });

  it('--report splits on the first "=": a drive letter, backslashes and "=" in the path stay the path', () => {
    expect(parseReportSpec('sarif=C:\\out\\r.sarif')).toEqual([
      { format: 'sarif', path: 'C:\\out\\r.sarif' },
    ]);
    expect(parseReportSpec('junit=C:\\a=b\\r.xml')).toEqual([{ format: 'junit', path: 'C:\\a=b\\r.xml' }]);
    expect(parseReportSpec('html=\\\\server\\share\\r.html')).toEqual([
      { format: 'html', path: '\\\\server\\share\\r.html' },
    ]);
    expect(() => parseReportSpec('C:\\out\\r.sarif')).toThrow(/use <format>=<path>/);
  });

  it('two reports to one file are refused as the platform compares paths', () => {
    const reports = [
      { format: 'sarif', path: 'C:\\out\\r.sarif' },
      { format: 'junit', path: 'c:/OUT/R.sarif' },
    ];
    const same = () => checkDestinations({ reports }, 'C:\\work');
    if (platform === 'win32') expect(same).toThrow(/name the same file/);
    else expect(same).not.toThrow();
    expect(destinationKey('r.sarif', platform === 'win32' ? 'D:\\w' : '/w')).toBe(
      platform === 'win32' ? 'd:\\w\\r.sarif' : '/w/r.sarif',
    );
  });
});

describe('webhooks listen --save', () => {
  it("names files with characters Windows accepts (no ':' from the time, nothing from the event)", () => {
    const name = savedFileName(
      new Date('2026-01-02T03:04:05.678Z'),
      'scan:done/<x>|"y"?*',
      Buffer.from('{}'),
    );
    expect(name).toMatch(/^20260102T030405\.678Z-scan_done__x___y___-[0-9a-f]{8}\.json$/);
    expect(name).not.toMatch(/[<>:"/\\|?*]/);
  });
});
