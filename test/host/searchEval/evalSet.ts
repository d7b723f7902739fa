/**
 * The labelled queries of the tool search evaluation (toolSearchEval.test.ts), over the tools of
 * the real servers in realTools.json: each query with the exposed names that answer it (all of
 * them belong in the top five). Four kinds: exact names, paraphrases, typos, other languages.
 */
export type QueryKind = 'exact' | 'paraphrase' | 'typo' | 'language';

export interface LabelledQuery {
  readonly kind: QueryKind;
  readonly query: string;
  readonly want: readonly string[];
}

const FS = 'filesystem__';
const EV = 'everything__';
const EX = 'example__';
const SUM = [`${EV}get-sum`, `${EX}add`];
const TIME = ['basicVanillajs__get-time', 'basicPreact__get-time'];
const ECHO = [`${EV}echo`, `${EX}echo`];

const q = (kind: QueryKind, query: string, ...want: string[]): LabelledQuery => ({ kind, query, want });

export const EVAL_SET: readonly LabelledQuery[] = [
  // Exact names, as a model or a user writes them.
  q('exact', 'read_text_file', `${FS}read_text_file`),
  q('exact', 'get-env', `${EV}get-env`),
  q('exact', 'list_directory', `${FS}list_directory`),
  q('exact', 'directory_tree', `${FS}directory_tree`),
  q('exact', 'move_file', `${FS}move_file`),
  q('exact', 'use get_file_info on it', `${FS}get_file_info`),
  q('exact', 'create_ticket', `${EX}create_ticket`),
  q('exact', 'generate_report', `${EX}generate_report`),
  q('exact', 'toggle-simulated-logging', `${EV}toggle-simulated-logging`),
  q('exact', 'gzip-file-as-resource', `${EV}gzip-file-as-resource`),
  q('exact', 'get-system-info', 'systemMonitor__get-system-info'),
  q('exact', 'filesystem__search_files', `${FS}search_files`),
  q('exact', 'add_item', `${EX}add_item`),
  q('exact', 'trigger-long-running-operation', `${EV}trigger-long-running-operation`),
  q('exact', 'getTinyImage', `${EV}get-tiny-image`),
  q('exact', 'update note', `${EX}update_note`),
  q('exact', 'list_allowed_directories', `${FS}list_allowed_directories`),
  q('exact', 'get-resource-reference', `${EV}get-resource-reference`),
  q('exact', 'read_multiple_files', `${FS}read_multiple_files`),
  q('exact', 'write_file', `${FS}write_file`),
  // Paraphrases: what the tool does, in other words.
  q('paraphrase', 'show the environment variables of the server', `${EV}get-env`),
  q('paraphrase', 'add two numbers together', ...SUM),
  q('paraphrase', 'compress a file with gzip', `${EV}gzip-file-as-resource`),
  q('paraphrase', 'what is the current server time', ...TIME),
  q('paraphrase', 'hostname, platform and CPU of the machine', 'systemMonitor__get-system-info'),
  q('paraphrase', 'rename a file', `${FS}move_file`),
  q('paraphrase', 'overwrite a file with new content', `${FS}write_file`),
  q('paraphrase', 'make a new directory', `${FS}create_directory`),
  q('paraphrase', 'recursive tree view of the folders as JSON', `${FS}directory_tree`),
  q('paraphrase', 'find files matching a glob pattern', `${FS}search_files`),
  q('paraphrase', 'replace lines in a text file and show a diff', `${FS}edit_file`),
  q('paraphrase', 'open a ticket with a priority', `${EX}create_ticket`),
  q('paraphrase', 'write a report in sections', `${EX}generate_report`),
  q('paraphrase', 'size, permissions and modified time of a file', `${FS}get_file_info`),
  q('paraphrase', 'which directories is the server allowed to access', `${FS}list_allowed_directories`),
  q('paraphrase', 'read several files at once', `${FS}read_multiple_files`),
  q('paraphrase', 'get an image or audio file as base64', `${FS}read_media_file`),
  q('paraphrase', 'long running operation with progress updates', `${EV}trigger-long-running-operation`),
  q('paraphrase', 'the tiny MCP logo image', `${EV}get-tiny-image`),
  q('paraphrase', 'turn random logging on or off', `${EV}toggle-simulated-logging`),
  q('paraphrase', 'deep research that gathers and synthesizes information', `${EV}simulate-research-query`),
  q('paraphrase', 'list the files of a path with their sizes', `${FS}list_directory_with_sizes`),
  q('paraphrase', 'register a new prompt', `${EX}add_prompt`),
  q('paraphrase', 'disable or re-enable a prompt', `${EX}toggle_prompt`),
  q('paraphrase', 'a resource link pointing at a demo item', `${EX}get_item_link`),
  q('paraphrase', 'echo back my message', ...ECHO),
  q('paraphrase', 'structured content with an output schema', `${EV}get-structured-content`),
  // poll-system-stats says the same but is app-only: never a model's, so never a match.
  q('paraphrase', 'per-core CPU timing and memory usage', 'systemMonitor__get-system-info'),
  // Typos.
  q('typo', 'raed text file', `${FS}read_text_file`),
  q('typo', 'lsit directory', `${FS}list_directory`),
  q('typo', 'print enviroment variables', `${EV}get-env`),
  q('typo', 'directroy tree', `${FS}directory_tree`),
  q('typo', 'serach files by pattern', `${FS}search_files`),
  q('typo', 'file infromation metadata', `${FS}get_file_info`),
  q('typo', 'creat a tiket', `${EX}create_ticket`),
  q('typo', 'gzip compresion', `${EV}gzip-file-as-resource`),
  q('typo', 'sytem information', 'systemMonitor__get-system-info'),
  q('typo', 'read mutliple files', `${FS}read_multiple_files`),
  q('typo', 'tiny imgae', `${EV}get-tiny-image`),
  q('typo', 'edit_fiel', `${FS}edit_file`),
  // Other languages (alone, or mixed with the English words of a tool, as people write).
  q('language', 'crear un directorio nuevo', `${FS}create_directory`),
  q('language', 'variables de entorno', `${EV}get-env`),
  q('language', 'informazioni di sistema', 'systemMonitor__get-system-info'),
  q('language', 'mover arquivo para outra pasta', `${FS}move_file`),
  q('language', 'compresser un fichier avec gzip', `${EV}gzip-file-as-resource`),
  q('language', 'lister le répertoire', `${FS}list_directory`),
  q('language', '用 read_text_file 读取文件', `${FS}read_text_file`),
  q('language', 'ファイルを検索 search_files', `${FS}search_files`),
  q('language', 'Verzeichnisbaum directory tree anzeigen', `${FS}directory_tree`),
  q('language', 'obtenir les informations du fichier', `${FS}get_file_info`),
];
