import Foundation
import UAAuditCore

/// Carries out a compiled run: lock, state, compute, report, deliver, commit, in that order.
///
/// The state is committed last, so a run killed at any point leaves the previous state and
/// the next run does the same work again; an alert is sent twice only if the process dies
/// between the receiver's answer and the commit (its id lets the receiver drop the copy).
struct RunExecution {
    let job: RunJob
    let console: Console
    let printJSON: Bool
    let quiet: Bool

    func run() -> ExitCode {
        let stop = StopSignals()
        let lock: RunLock
        do {
            lock = try RunLock.acquire(path: job.lockPath, wait: job.lockWait)
        } catch let error as RunLock.Busy {
            console.error(error.description)
            return .locked
        } catch {
            console.error("cannot open lock file \(job.lockPath): \(error)")
            return .usage
        }
        defer { lock.release() }

        let saved: RunState
        do {
            saved = try RunState.load(path: job.statePath)
        } catch {
            console.error(error.description)
            return .usage
        }
        let generatedAt = Timestamps.iso8601UTC(seconds: job.settings.now)
        let outcome = RunEngine.run(job.settings, state: saved, generatedAt: generatedAt)
        CrashPoint.here("after-compute")
        if let signal = stop.caught { return stopped(signal) }

        let json: [UInt8]
        do {
            json = try ReportEncoding.encode(outcome.report)
        } catch {
            console.error("cannot encode the report: \(error)")
            return .input
        }
        if let path = job.reportPath {
            do {
                try AtomicFile.write(json, to: path, mode: 0o644)
            } catch {
                console.error("cannot write report \(path): \(error.description); state not committed, nothing lost")
                return .input
            }
        }
        CrashPoint.here("after-report")
        if let signal = stop.caught { return stopped(signal) }

        let state = outcome.state
        CrashPoint.here("after-deliver")
        if let signal = stop.caught { return stopped(signal) }
        do {
            let bytes = try state.encoded()
            CrashPoint.here("before-commit")
            try AtomicFile.write(bytes, to: job.statePath, mode: 0o600)
        } catch {
            console.error("cannot commit state \(job.statePath): \(error); the previous state is untouched")
            return .input
        }
        CrashPoint.here("after-commit")

        for error in outcome.errors { console.error("\(error); that log was not advanced and will be read again") }
        for gap in outcome.report.gaps ?? [] where gap.detectedAt == generatedAt {
            console.error(
                "\(gap.log): bytes from \(gap.fromOffset) of \(gap.file) could not be read: \(gap.reason)")
        }
        if printJSON {
            console.out(bytes: json)
        } else if !quiet {
            console.out(Summary.render(outcome.report, width: 80))
        }
        return outcome.errors.isEmpty ? .success : .input
    }

    private func stopped(_ signal: Int32) -> ExitCode {
        console.error("stopped by signal \(signal) before committing; the next run redoes this one")
        exit(128 + signal)
    }
}
