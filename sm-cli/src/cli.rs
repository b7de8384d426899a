//! Command-line definitions (clap derive) and dispatch.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::error::{Error, Result};
use crate::io::Encoding;
use crate::keys::{KeyFormat, OutPassArgs, PassArgs, Pbe};

/// SM2 / SM3 / SM9 command-line tool, interoperable with OpenSSL 3.0 and GmSSL.
///
/// Exit status: 0 success; 1 verification or decryption failure (also for a truncated or
/// malformed signature or ciphertext, and an SM3 --check mismatch); 2 usage or input error
/// (unknown option, unreadable file, malformed or wrong-type key, wrong password).
#[derive(Parser, Debug)]
#[command(name = "smtool", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// SM3 digests (or HMAC-SM3) of files, printed like sha256sum; --check verifies a list.
    Sm3(Sm3Args),
    /// SM2: key generation, signatures (with distinguishing IDs), public-key encryption.
    #[command(subcommand)]
    Sm2(Sm2Command),
    /// SM9 identity-based cryptography: master keys, user keys, signatures, encryption, KEM.
    #[command(subcommand)]
    Sm9(Sm9Command),
    /// SM4 file encryption (CBC, CTR, GCM), streamed; raw output as 'openssl enc -K -iv'.
    Sm4(Sm4Args),
    /// SM2 X.509: certificate requests, certificates (self-signed or issued by a CA), chain
    /// verification, inspection.
    #[command(subcommand)]
    X509(X509Command),
    /// Operations per second on this machine, as 'openssl speed' (a quick look, not a benchmark).
    Speed(SpeedArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the man page (roff) of smtool.
    Man,
}

/// What `smtool speed` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SpeedAlg {
    /// SM3 over 16 KiB.
    Sm3,
    /// SM4-CBC encryption of 16 KiB.
    Sm4Cbc,
    /// SM4-CTR of 16 KiB.
    Sm4Ctr,
    /// SM4-GCM encryption of 16 KiB.
    Sm4Gcm,
    /// SM2 signing (of a digest).
    Sm2Sign,
    /// SM2 verification (of a digest).
    Sm2Verify,
    /// SM2 encryption of a short message.
    Sm2Encrypt,
    /// SM2 decryption of a short message.
    Sm2Decrypt,
    /// SM9 signing.
    Sm9Sign,
    /// SM9 verification.
    Sm9Verify,
    /// SM9 encryption of a short message.
    Sm9Encrypt,
    /// SM9 decryption of a short message.
    Sm9Decrypt,
}

/// `smtool speed`.
#[derive(Args, Debug)]
pub struct SpeedArgs {
    /// What to measure (default: everything).
    #[arg(value_enum, value_name = "ALG")]
    pub algs: Vec<SpeedAlg>,
    /// Seconds per measurement.
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
    pub seconds: f64,
}

/// `smtool completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// SM4 modes of operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sm4Mode {
    /// CBC with PKCS#7 padding (openssl enc -sm4-cbc); 16-byte IV.
    Cbc,
    /// CTR with a 128-bit big-endian counter (openssl enc -sm4-ctr); 16-byte initial counter.
    Ctr,
    /// GCM (NIST SP 800-38D) with a 12-byte IV; the 16-byte tag follows the ciphertext (as
    /// GmSSL writes it).
    Gcm,
}

/// `smtool sm4`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("direction").required(true).args(["encrypt", "decrypt"])))]
pub struct Sm4Args {
    /// Encrypt.
    #[arg(short, long)]
    pub encrypt: bool,
    /// Decrypt (GCM: nothing is written unless the tag checks out).
    #[arg(short, long)]
    pub decrypt: bool,
    /// Mode of operation.
    #[arg(short, long, value_enum, default_value_t = Sm4Mode::Cbc)]
    pub mode: Sm4Mode,
    /// The key, 32 hexadecimal digits, from FILE (preferred: a command line is visible to other
    /// users).
    #[arg(long, value_name = "FILE", conflicts_with = "key")]
    pub key_file: Option<PathBuf>,
    /// The key as 32 hexadecimal digits.
    #[arg(short = 'K', long, value_name = "HEX")]
    pub key: Option<String>,
    /// The IV (CBC), initial counter block (CTR) or nonce (GCM) in hexadecimal: never reuse
    /// one with the same key.
    #[arg(long, value_name = "HEX")]
    pub iv: String,
    /// GCM additional authenticated data, in hexadecimal.
    #[arg(long, value_name = "HEX")]
    pub aad: Option<String>,
    #[command(flatten)]
    pub input: InArgs,
    /// Output file ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
}

/// Arguments of `smtool sm3`.
#[derive(Args, Debug)]
pub struct Sm3Args {
    /// Files to hash ('-' or none: standard input).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Compute HMAC-SM3 with this key (hexadecimal).
    #[arg(long, value_name = "HEX")]
    pub hmac_key: Option<String>,
    /// Read 'digest  name' lines from the FILEs and verify them.
    #[arg(short, long)]
    pub check: bool,
    /// With --check: print nothing for verified files.
    #[arg(long, requires = "check")]
    pub quiet: bool,
}

/// Where a binary object goes and how it is encoded.
#[derive(Args, Debug, Clone)]
pub struct OutArgs {
    /// Output file ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
    /// Text encoding of the signature / ciphertext / key material written or read.
    #[arg(long, value_enum, default_value_t = Encoding::Raw)]
    pub encoding: Encoding,
}

/// The message input.
#[derive(Args, Debug, Clone)]
pub struct InArgs {
    /// Input file ('-': standard input).
    #[arg(short = 'i', long = "in", value_name = "FILE", default_value = "-")]
    pub input: PathBuf,
}

/// A distinguishing identifier, as text, hex or a file.
#[derive(Args, Debug, Clone)]
pub struct IdArgs {
    /// Distinguishing ID as text (default "1234567812345678"; OpenSSL's default is the empty ID).
    #[arg(long, value_name = "ID", conflicts_with_all = ["id_hex", "id_file"])]
    pub id: Option<String>,
    /// Distinguishing ID in hexadecimal (whitespace between digits is ignored).
    #[arg(long, value_name = "HEX", conflicts_with = "id_file")]
    pub id_hex: Option<String>,
    /// Distinguishing ID read from FILE (at most 1 MiB; leading and trailing whitespace, such as
    /// the final newline, is not part of the ID: use --id-hex for such IDs).
    #[arg(long, value_name = "FILE")]
    pub id_file: Option<PathBuf>,
}

impl IdArgs {
    /// The ID bytes, or `default` when none was given.
    pub fn bytes(&self, default: Option<&[u8]>) -> Result<Vec<u8>> {
        match (&self.id, &self.id_hex, &self.id_file) {
            (Some(s), _, _) => Ok(s.as_bytes().to_vec()),
            (None, Some(h), _) => parse_hex(h, "--id-hex"),
            (None, None, Some(f)) => {
                let data = crate::io::read_bounded(f, crate::io::MAX_SMALL_INPUT, "ID file")?;
                Ok(data.trim_ascii().to_vec())
            }
            (None, None, None) => default.map(<[u8]>::to_vec).ok_or_else(|| {
                Error::Usage("an identity is required: give --id, --id-hex or --id-file".into())
            }),
        }
    }

    /// `("--id-file", path)` for the standard-input accounting.
    pub fn reader(&self) -> (&'static str, Option<&std::path::Path>) {
        ("--id-file", self.id_file.as_deref())
    }
}

/// Hexadecimal from option `opt`, ignoring whitespace.
pub fn parse_hex(text: &str, opt: &str) -> Result<Vec<u8>> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if let Some(p) = digits.iter().position(|b| !b.is_ascii_hexdigit()) {
        return Err(Error::Usage(format!(
            "{opt} is not valid hex: {} is not a hex digit",
            crate::error::quote_bytes(&digits[p..p + 1])
        )));
    }
    hex::decode(&digits).map_err(|_| {
        Error::Usage(format!(
            "{opt} is not valid hex: an odd number of digits ({})",
            digits.len()
        ))
    })
}

/// The `--id` help of the SM9 commands (the shared text names SM2's default ID).
const SM9_ID_HELP: &str = "Identity as text (required)";

/// Where a newly written key goes.
#[derive(Args, Debug, Clone)]
pub struct KeyOutArgs {
    /// Key file format.
    #[arg(long, value_enum, default_value_t = KeyFormat::Pem)]
    pub key_format: KeyFormat,
}

#[derive(Subcommand, Debug)]
pub enum Sm2Command {
    /// Generate a key pair: PKCS#8 private key (encrypted with --pass-env/--pass-file) and SPKI public key.
    Keygen(Sm2Keygen),
    /// Write the SPKI public key of a private key (or re-encode a public key).
    Pubkey(Sm2Pubkey),
    /// Print what a key file holds, as 'openssl pkey -text' (the secret only with --secret).
    Show(ShowArgs),
    /// Sign a message (streamed: SM3(ZA || M) is computed chunk by chunk).
    Sign(Sm2Sign),
    /// Verify a signature over a message (streamed).
    Verify(Sm2Verify),
    /// Encrypt to a public key.
    Encrypt(Sm2Encrypt),
    /// Decrypt with a private key.
    Decrypt(Sm2Decrypt),
    /// Key exchange with a peer over two byte streams (FIFOs, pipes, standard input/output).
    Exchange(Sm2Exchange),
}

/// `smtool sm2 keygen`.
#[derive(Args, Debug)]
#[command(mut_arg("out_pass_env", |a| a.alias("pass-env")))]
#[command(mut_arg("out_pass_file", |a| a.alias("pass-file")))]
pub struct Sm2Keygen {
    /// Private key output ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
    /// Also write the public key (SPKI) here.
    #[arg(long, value_name = "FILE")]
    pub pubout: Option<PathBuf>,
    #[command(flatten)]
    pub pass: OutPassArgs,
    /// Password-based encryption to use with the password (default gmssl, which OpenSSL 3.0
    /// cannot read; needs --out-pass-env or --out-pass-file).
    #[arg(long, value_enum)]
    pub pbe: Option<Pbe>,
    /// PKCS#8 layout of the private key (GmSSL and OpenSSL read both).
    #[arg(long, value_enum, default_value_t = Pkcs8Layout::Openssl)]
    pub pkcs8_layout: Pkcs8Layout,
    #[command(flatten)]
    pub key_out: KeyOutArgs,
}

/// Where an SM2 PKCS#8 key names its curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Pkcs8Layout {
    /// In the AlgorithmIdentifier only, as OpenSSL writes it.
    Openssl,
    /// Also inside the ECPrivateKey (its `[0]` parameters field), as GmSSL writes it.
    Gmssl,
}

/// `smtool sm2 pubkey`.
#[derive(Args, Debug)]
pub struct Sm2Pubkey {
    /// SM2 private (or public) key, PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    /// Public key output ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
    #[command(flatten)]
    pub key_out: KeyOutArgs,
}

/// `smtool sm2 show` / `sm9 show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// The key file, PEM or DER (private, public or master public key).
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    /// Also print the secret (private key, master secret or user key).
    #[arg(long)]
    pub secret: bool,
}

/// SM2 signature encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sm2SigFormat {
    /// DER SEQUENCE { r, s } (OpenSSL, GmSSL).
    Der,
    /// 64 bytes r || s.
    Raw,
}

/// `smtool sm2 sign`.
#[derive(Args, Debug)]
pub struct Sm2Sign {
    /// SM2 private key, PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    #[command(flatten)]
    pub id: IdArgs,
    /// Signature encoding.
    #[arg(long, value_enum, default_value_t = Sm2SigFormat::Der)]
    pub format: Sm2SigFormat,
    #[command(flatten)]
    pub input: InArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// `smtool sm2 verify`.
#[derive(Args, Debug)]
pub struct Sm2Verify {
    /// SM2 public key (SPKI), PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub pubkey: PathBuf,
    #[command(flatten)]
    pub id: IdArgs,
    /// Signature file.
    #[arg(short, long, value_name = "FILE")]
    pub sig: PathBuf,
    /// Signature encoding.
    #[arg(long, value_enum, default_value_t = Sm2SigFormat::Der)]
    pub format: Sm2SigFormat,
    /// Text encoding of the signature file.
    #[arg(long, value_enum, default_value_t = Encoding::Raw)]
    pub encoding: Encoding,
    #[command(flatten)]
    pub input: InArgs,
    /// Print nothing on success.
    #[arg(short, long)]
    pub quiet: bool,
}

/// SM2 ciphertext encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sm2CtFormat {
    /// GM/T 0009 DER SEQUENCE { x, y, C3, C2 } (OpenSSL, GmSSL).
    Der,
    /// 04 || x || y || C3 || C2 (GB/T 32918.4-2016).
    C1c3c2,
    /// 04 || x || y || C2 || C3 (older order).
    C1c2c3,
}

/// `smtool sm2 encrypt`.
#[derive(Args, Debug)]
pub struct Sm2Encrypt {
    /// Recipient's SM2 public key (SPKI), PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub pubkey: PathBuf,
    /// Ciphertext encoding.
    #[arg(long, value_enum, default_value_t = Sm2CtFormat::Der)]
    pub format: Sm2CtFormat,
    #[command(flatten)]
    pub input: InArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// `smtool sm2 decrypt`.
#[derive(Args, Debug)]
pub struct Sm2Decrypt {
    /// SM2 private key, PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    /// Ciphertext encoding.
    #[arg(long, value_enum, default_value_t = Sm2CtFormat::Der)]
    pub format: Sm2CtFormat,
    /// Text encoding of the ciphertext input.
    #[arg(long, value_enum, default_value_t = Encoding::Raw)]
    pub encoding: Encoding,
    #[command(flatten)]
    pub input: InArgs,
    /// Plaintext output ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
}

#[derive(Subcommand, Debug)]
pub enum Sm9Command {
    /// Generate a master key (KGC) and its master public key.
    Setup(Sm9Setup),
    /// Extract a user's private key for an identity from a master key.
    Extract(Sm9Extract),
    /// Write the master public key of a master key or user key (re-derived from a master key).
    Pubkey(Sm9Pubkey),
    /// Print what a key file holds (the secret only with --secret).
    Show(ShowArgs),
    /// Sign a message with a user signing key (streamed).
    Sign(Sm9Sign),
    /// Verify a signature for an identity under a master public key (streamed).
    Verify(Sm9Verify),
    /// Encrypt to an identity under an encryption master public key.
    Encrypt(Sm9Encrypt),
    /// Decrypt with a user decryption key.
    Decrypt(Sm9Decrypt),
    /// Key encapsulation: derive a shared key for an identity, or recover it.
    #[command(subcommand)]
    Kem(Sm9Kem),
    /// Key exchange with a peer over two byte streams (FIFOs, pipes, standard input/output).
    Exchange(Sm9Exchange),
}

/// `smtool sm9 setup`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("system").required(true).args(["sign", "enc"])))]
#[command(mut_arg("out_pass_env", |a| a.alias("pass-env")))]
#[command(mut_arg("out_pass_file", |a| a.alias("pass-file")))]
pub struct Sm9Setup {
    /// Signature system (master public key in G2).
    #[arg(long)]
    pub sign: bool,
    /// Encryption / key-exchange system (master public key in G1).
    #[arg(long)]
    pub enc: bool,
    /// Master key output ('-': standard output). It is password-encrypted (PBKDF2-HMAC-SM3 and
    /// SM4-CBC, as GmSSL writes and requires): give --out-pass-env or --out-pass-file, or
    /// --no-encrypt to write it in the clear.
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
    /// Master public key output.
    #[arg(long, value_name = "FILE")]
    pub pubout: Option<PathBuf>,
    #[command(flatten)]
    pub pass: OutPassArgs,
    /// Write the master key unencrypted (GmSSL refuses to; anyone who reads the file can issue
    /// keys for every identity).
    #[arg(long, conflicts_with_all = ["out_pass_env", "out_pass_file"])]
    pub no_encrypt: bool,
    /// Use the master secret (ks or ke, 64 hexadecimal digits) in FILE instead of a random one:
    /// turns a bare secret into a key file.
    #[arg(long, value_name = "FILE")]
    pub secret_file: Option<PathBuf>,
    #[command(flatten)]
    pub key_out: KeyOutArgs,
}

/// `smtool sm9 pubkey`.
#[derive(Args, Debug)]
pub struct Sm9Pubkey {
    /// SM9 master key or user key, PEM or DER (a user key carries its master public key).
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    /// Master public key output ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
    #[command(flatten)]
    pub key_out: KeyOutArgs,
}

/// `smtool sm9 extract`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(SM9_ID_HELP)))]
pub struct Sm9Extract {
    /// Master key (signature or encryption system), PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub master: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    #[command(flatten)]
    pub id: IdArgs,
    /// From an encryption master key, extract a key-exchange key (hid 2) instead of a decryption key (hid 3).
    #[arg(long)]
    pub exchange: bool,
    /// User key output ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
    #[command(flatten)]
    pub out_pass: OutPassArgs,
    #[command(flatten)]
    pub key_out: KeyOutArgs,
}

/// SM9 signature encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sm9SigFormat {
    /// GM/T 0080 DER SEQUENCE { h OCTET STRING, S BIT STRING } (GmSSL).
    Der,
    /// h || S (32 + 65 bytes; gmalg).
    Raw,
}

/// `smtool sm9 sign`.
#[derive(Args, Debug)]
pub struct Sm9Sign {
    /// User signing key, PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    /// Signature encoding.
    #[arg(long, value_enum, default_value_t = Sm9SigFormat::Der)]
    pub format: Sm9SigFormat,
    #[command(flatten)]
    pub input: InArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// `smtool sm9 verify`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(SM9_ID_HELP)))]
pub struct Sm9Verify {
    /// Signature master public key, PEM or DER.
    #[arg(short, long = "pubkey", alias = "mpk", value_name = "FILE")]
    pub mpk: PathBuf,
    #[command(flatten)]
    pub id: IdArgs,
    /// Signature file.
    #[arg(short, long, value_name = "FILE")]
    pub sig: PathBuf,
    /// Signature encoding.
    #[arg(long, value_enum, default_value_t = Sm9SigFormat::Der)]
    pub format: Sm9SigFormat,
    /// Text encoding of the signature file.
    #[arg(long, value_enum, default_value_t = Encoding::Raw)]
    pub encoding: Encoding,
    #[command(flatten)]
    pub input: InArgs,
    /// Print nothing on success.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The SM9 encryption MAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sm9Mac {
    /// The standard's SM3(C2 || K2) (GM/T 0044.4; gmalg).
    Standard,
    /// GmSSL's HMAC-SM3(K2, C2).
    Gmssl,
}

/// The SM9 data-encapsulation cipher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sm9Cipher {
    /// KDF stream cipher (EnType 0).
    Kdf,
    /// SM4-CBC with PKCS#7 padding and a random IV (EnType 2).
    Sm4Cbc,
    /// SM4-ECB with PKCS#7 padding (EnType 1).
    Sm4Ecb,
}

/// SM9 ciphertext encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sm9CtFormat {
    /// GM/T 0080 DER SEQUENCE { EnType, C1, C3, C2 } (GmSSL).
    Der,
    /// C1 || C3 || C2 with C1 = 04 || x || y (GM/T 0044.4; gmalg). Decrypting needs --cipher.
    Raw,
}

/// `smtool sm9 encrypt`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(SM9_ID_HELP)))]
pub struct Sm9Encrypt {
    /// Encryption master public key, PEM or DER.
    #[arg(short, long = "pubkey", alias = "mpk", value_name = "FILE")]
    pub mpk: PathBuf,
    #[command(flatten)]
    pub id: IdArgs,
    /// MAC over C2 [default: gmssl with --format der, as GmSSL writes DER; standard with
    /// --format raw, as gmalg writes raw ciphertexts].
    #[arg(long, value_enum)]
    pub mac: Option<Sm9Mac>,
    /// Cipher for the message.
    #[arg(long, value_enum, default_value_t = Sm9Cipher::Kdf)]
    pub cipher: Sm9Cipher,
    /// Ciphertext encoding.
    #[arg(long, value_enum, default_value_t = Sm9CtFormat::Der)]
    pub format: Sm9CtFormat,
    #[command(flatten)]
    pub input: InArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// `smtool sm9 decrypt`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(SM9_ID_HELP)))]
pub struct Sm9Decrypt {
    /// User decryption key, PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    #[command(flatten)]
    pub id: IdArgs,
    /// MAC over C2, the sender's [default: gmssl with --format der, standard with --format raw,
    /// as smtool sm9 encrypt writes them].
    #[arg(long, value_enum)]
    pub mac: Option<Sm9Mac>,
    /// Cipher of a raw ciphertext (DER ciphertexts name theirs).
    #[arg(long, value_enum)]
    pub cipher: Option<Sm9Cipher>,
    /// Ciphertext encoding.
    #[arg(long, value_enum, default_value_t = Sm9CtFormat::Der)]
    pub format: Sm9CtFormat,
    /// Text encoding of the ciphertext input.
    #[arg(long, value_enum, default_value_t = Encoding::Raw)]
    pub encoding: Encoding,
    #[command(flatten)]
    pub input: InArgs,
    /// Plaintext output ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
}

/// Encodings of an SM9 encapsulation C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sm9KemFormat {
    /// 04 || x || y (65 bytes), as gmalg writes it.
    Raw,
    /// DER BIT STRING of 04 || x || y.
    Der,
}

#[derive(Subcommand, Debug)]
pub enum Sm9Kem {
    /// Derive a fresh shared key for an identity; write the key and its encapsulation C.
    Encap(Sm9Encap),
    /// Recover the shared key from an encapsulation C with a user decryption key.
    Decap(Sm9Decap),
}

/// `smtool sm9 kem encap`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(SM9_ID_HELP)))]
pub struct Sm9Encap {
    /// Encryption master public key, PEM or DER.
    #[arg(short, long = "pubkey", alias = "mpk", value_name = "FILE")]
    pub mpk: PathBuf,
    #[command(flatten)]
    pub id: IdArgs,
    /// Shared key length in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 32)]
    pub len: usize,
    /// Shared key output ('-': standard output).
    #[arg(long, value_name = "FILE")]
    pub key_out: PathBuf,
    /// Encapsulation encoding.
    #[arg(long, value_enum, default_value_t = Sm9KemFormat::Raw)]
    pub format: Sm9KemFormat,
    #[command(flatten)]
    pub out: OutArgs,
}

/// `smtool sm9 kem decap`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(SM9_ID_HELP)))]
pub struct Sm9Decap {
    /// User decryption key, PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    #[command(flatten)]
    pub id: IdArgs,
    /// Shared key length in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 32)]
    pub len: usize,
    /// Encapsulation encoding.
    #[arg(long, value_enum, default_value_t = Sm9KemFormat::Raw)]
    pub format: Sm9KemFormat,
    #[command(flatten)]
    pub input: InArgs,
    #[command(flatten)]
    pub out: OutArgs,
}

/// The party's role in a key exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A: sends first.
    Initiator,
    /// B: answers.
    Responder,
}

/// What both key exchanges take.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("role").required(true).args(["initiator", "responder"])))]
pub struct ExchangeArgs {
    /// Be the initiator A (sends R_A first).
    #[arg(long)]
    pub initiator: bool,
    /// Be the responder B.
    #[arg(long)]
    pub responder: bool,
    /// Our own identity / distinguishing ID (SM2 default 1234567812345678).
    #[arg(long = "id", value_name = "ID")]
    pub own: Option<String>,
    /// The peer's identity / distinguishing ID (SM2 default 1234567812345678).
    #[arg(long, value_name = "ID")]
    pub peer_id: Option<String>,
    /// Where our messages go ('-': standard output).
    #[arg(long, value_name = "FILE", default_value = "-")]
    pub send: PathBuf,
    /// Where the peer's messages come from ('-': standard input).
    #[arg(long, value_name = "FILE", default_value = "-")]
    pub recv: PathBuf,
    /// Shared key length in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 16)]
    pub len: usize,
    /// Skip the optional key confirmation (S_B, S_A), as gmalg does; both parties must agree.
    #[arg(long)]
    pub no_confirm: bool,
    /// Shared key output.
    #[arg(long, value_name = "FILE")]
    pub key_out: PathBuf,
    /// Text encoding of the shared key.
    #[arg(long, value_enum, default_value_t = Encoding::Raw)]
    pub encoding: Encoding,
}

impl ExchangeArgs {
    /// The role chosen.
    pub fn role(&self) -> Role {
        if self.initiator {
            Role::Initiator
        } else {
            Role::Responder
        }
    }

    fn id(given: &Option<String>, default: Option<&[u8]>, opt: &str) -> Result<Vec<u8>> {
        match (given, default) {
            (Some(s), _) => Ok(s.as_bytes().to_vec()),
            (None, Some(d)) => Ok(d.to_vec()),
            (None, None) => Err(Error::Usage(format!("{opt} is required"))),
        }
    }

    /// Our ID, or `default`.
    pub fn own_id(&self, default: Option<&[u8]>) -> Result<Vec<u8>> {
        Self::id(&self.own, default, "--id")
    }

    /// The peer's ID, or `default`.
    pub fn peer_id(&self, default: Option<&[u8]>) -> Result<Vec<u8>> {
        Self::id(&self.peer_id, default, "--peer-id")
    }
}

/// `smtool sm2 exchange`.
#[derive(Args, Debug)]
pub struct Sm2Exchange {
    /// Our SM2 private key, PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    /// The peer's SM2 public key (SPKI), PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub pubkey: PathBuf,
    #[command(flatten)]
    pub exchange: ExchangeArgs,
}

/// `smtool sm9 exchange`.
#[derive(Args, Debug)]
#[command(mut_arg("own", |a| a.help("Our identity (required)")))]
#[command(mut_arg("peer_id", |a| a.help("The peer's identity (required)")))]
pub struct Sm9Exchange {
    /// Our SM9 user key-exchange key (smtool sm9 extract --exchange), PEM or DER; it carries the
    /// master public key.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    #[command(flatten)]
    pub exchange: ExchangeArgs,
}

#[derive(Subcommand, Debug)]
pub enum X509Command {
    /// Create a certificate signing request (PKCS#10) signed with SM2-with-SM3, as 'openssl req
    /// -new'.
    Req(X509Req),
    /// Issue a certificate: self-signed (no --issuer), or signed by a CA (--issuer CERT, --key
    /// its key) for a request (--csr) or a public key (--pubkey).
    Cert(X509Cert),
    /// Verify a certificate up to a trust anchor (--ca-file, intermediates in --chain): SM2
    /// signatures, validity periods, CA basicConstraints and keyUsage; or a request's
    /// self-signature.
    Verify(X509Verify),
    /// Print what a certificate or certificate request holds.
    Show(X509Show),
}

/// subjectAltName entries.
#[derive(Args, Debug, Clone)]
pub struct SanArgs {
    /// subjectAltName DNS name (repeatable).
    #[arg(long, value_name = "NAME")]
    pub dns: Vec<String>,
    /// subjectAltName IP address, IPv4 or IPv6 (repeatable).
    #[arg(long, value_name = "ADDR")]
    pub ip: Vec<std::net::IpAddr>,
}

/// The signer's distinguishing ID (certificates and requests).
const X509_ID_HELP: &str = "The signer's distinguishing ID as text (default \"1234567812345678\", \
    which GM/T 0015 prescribes for certificates; OpenSSL 3.0 needs '-sigopt distid:ID' to sign \
    and '-vfyopt distid:ID' to verify with it)";

/// `smtool x509 req`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(X509_ID_HELP)))]
pub struct X509Req {
    /// SM2 private key of the subject, PEM or DER.
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    /// Subject: '/CN=name/O=org/C=CN' (OpenSSL's form) or an RFC 4514 string 'CN=name,O=org,C=CN'.
    #[arg(long, value_name = "NAME")]
    pub subj: String,
    #[command(flatten)]
    pub id: IdArgs,
    #[command(flatten)]
    pub san: SanArgs,
    /// Request output ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = KeyFormat::Pem)]
    pub format: KeyFormat,
}

/// `smtool x509 cert`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(X509_ID_HELP)))]
pub struct X509Cert {
    /// The signing SM2 private key: the issuer's (with --issuer), or the subject's own
    /// (self-signed).
    #[arg(short, long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    pub pass: PassArgs,
    #[command(flatten)]
    pub id: IdArgs,
    /// The issuer's certificate, PEM or DER (omit for a self-signed certificate).
    #[arg(long, value_name = "FILE")]
    pub issuer: Option<PathBuf>,
    /// Certify the key and subject of this certificate request (its self-signature is checked
    /// first; its requested subjectAltName is copied unless --dns/--ip are given).
    #[arg(long, value_name = "FILE", conflicts_with = "pubkey")]
    pub csr: Option<PathBuf>,
    /// The distinguishing ID of the request's self-signature (default "1234567812345678").
    #[arg(long, value_name = "ID", requires = "csr")]
    pub csr_id: Option<String>,
    /// Certify this SM2 public key (SPKI, PEM or DER); needs --issuer and --subj.
    #[arg(long, value_name = "FILE", requires = "issuer")]
    pub pubkey: Option<PathBuf>,
    /// Subject (default: the request's): '/CN=name/O=org' or 'CN=name,O=org'.
    #[arg(long, value_name = "NAME")]
    pub subj: Option<String>,
    /// Serial number in hexadecimal (default: 128 random bits).
    #[arg(long, value_name = "HEX")]
    pub serial: Option<String>,
    /// Validity period in days, from now.
    #[arg(long, value_name = "DAYS", default_value_t = 365)]
    pub days: u32,
    /// A CA certificate: basicConstraints CA:TRUE (else CA:FALSE, both critical) and, by
    /// default, keyUsage keyCertSign, cRLSign, digitalSignature.
    #[arg(long)]
    pub ca: bool,
    /// The CA's path length constraint (how many CA certificates may follow it).
    #[arg(long, value_name = "N", requires = "ca")]
    pub path_len: Option<u8>,
    /// keyUsage, comma-separated: digitalSignature, nonRepudiation, keyEncipherment,
    /// dataEncipherment, keyAgreement, keyCertSign, cRLSign, encipherOnly, decipherOnly
    /// [default: digitalSignature,nonRepudiation (a TLCP signing certificate); with --ca
    /// keyCertSign,cRLSign,digitalSignature]. A TLCP encryption certificate:
    /// keyEncipherment,dataEncipherment,keyAgreement.
    #[arg(long, value_name = "LIST")]
    pub key_usage: Option<String>,
    #[command(flatten)]
    pub san: SanArgs,
    /// Certificate output ('-': standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub out: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = KeyFormat::Pem)]
    pub format: KeyFormat,
}

/// `smtool x509 verify`.
#[derive(Args, Debug)]
#[command(mut_arg("id", |a| a.help(X509_ID_HELP)))]
pub struct X509Verify {
    /// The certificate or certificate request, PEM or DER ('-': standard input).
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: PathBuf,
    /// Trust anchors: PEM certificates (or one DER certificate). A certificate that is itself
    /// an anchor has its own signature checked.
    #[arg(long, value_name = "FILE")]
    pub ca_file: Option<PathBuf>,
    /// Untrusted intermediate CA certificates (PEM).
    #[arg(long, value_name = "FILE")]
    pub chain: Option<PathBuf>,
    #[command(flatten)]
    pub id: IdArgs,
    /// Print nothing on success.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `smtool x509 show`.
#[derive(Args, Debug)]
pub struct X509Show {
    /// The certificate or certificate request, PEM or DER ('-': standard input).
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: PathBuf,
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Sm3(a) => crate::sm3_cmd::run(&a),
        Command::Sm2(c) => crate::sm2_cmd::run(c),
        Command::Sm9(c) => crate::sm9_cmd::run(c),
        Command::Sm4(a) => crate::sm4_cmd::run(&a),
        Command::X509(c) => crate::x509_cmd::run(c),
        Command::Speed(a) => crate::speed::run(&a),
        Command::Completions(a) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(a.shell, &mut cmd, "smtool", &mut out);
            crate::io::print(&out)
        }
        Command::Man => {
            let mut out = Vec::new();
            clap_mangen::Man::new(<Cli as clap::CommandFactory>::command())
                .render(&mut out)
                .map_err(|e| Error::Input(format!("cannot render the man page: {e}")))?;
            crate::io::print(&out)
        }
    }
}
