// Lucene's side of `npm run bench:peers` (bench/peers.ts), run by Java 17's source launcher with Debian's
// liblucene8-java on the class path:
//   java -cp '/usr/share/java/lucene-core-*.jar' bench/LucenePeer.java CORPUS QUERIES ANSWERS sorted|default
// CORPUS: one post a line, `id TAB time TAB tokens` (the project's tokens, space-separated). QUERIES: one a line,
// `recent TAB offset TAB limit TAB from TAB to TAB terms TAB facets TAB excluded` (tokens space-separated; from/to
// epoch ms). It builds the index in memory (`sorted`: sorted newest first, so a RECENT page stops early), prints
// `built MS HEAP_BYTES INDEX_BYTES`, writes every query's exact total and page to ANSWERS (`total TAB ids`), prints
// `answered`, then runs one timed pass over the queries for each `round` line on stdin, printing the CPU nanoseconds
// of each query on one line; a `repeat I N` line times query I N times over (one line of N figures). Every token is
// a whole term (StringField): no analysis, as the project's tokens are final.
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import org.apache.lucene.document.*;
import org.apache.lucene.index.*;
import org.apache.lucene.search.*;
import org.apache.lucene.store.ByteBuffersDirectory;

public class LucenePeer {
  record Query_(boolean recent, int offset, int limit, org.apache.lucene.search.Query query) {}

  static final Sort NEWEST = new Sort(new SortField("time", SortField.Type.LONG, true), new SortField("id", SortField.Type.LONG, true));

  public static void main(String[] args) throws Exception {
    Runtime runtime = Runtime.getRuntime();
    System.gc();
    long heapBefore = runtime.totalMemory() - runtime.freeMemory();
    long started = System.nanoTime();
    ByteBuffersDirectory directory = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig().setRAMBufferSizeMB(256);
    if (args[3].equals("sorted")) config.setIndexSort(NEWEST);
    try (IndexWriter writer = new IndexWriter(directory, config);
         BufferedReader corpus = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
      for (String line; (line = corpus.readLine()) != null; ) {
        String[] parts = line.split("\t", -1);
        long id = Long.parseLong(parts[0]);
        long time = Long.parseLong(parts[1]);
        Document document = new Document();
        document.add(new NumericDocValuesField("id", id));
        document.add(new NumericDocValuesField("time", time));
        document.add(new LongPoint("time", time));
        for (String token : parts[2].split(" ")) if (!token.isEmpty()) document.add(new StringField("t", token, Field.Store.NO));
        writer.addDocument(document);
      }
      writer.forceMerge(1);
    }
    DirectoryReader reader = DirectoryReader.open(directory);
    IndexSearcher searcher = new IndexSearcher(reader);
    long builtMs = (System.nanoTime() - started) / 1_000_000;
    System.gc();
    long indexBytes = 0;
    for (String file : directory.listAll()) indexBytes += directory.fileLength(file);
    System.out.println("built " + builtMs + " " + (runtime.totalMemory() - runtime.freeMemory() - heapBefore) + " " + indexBytes);

    List<Query_> queries = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8)) {
      String[] p = line.split("\t", -1);
      BooleanQuery.Builder query = new BooleanQuery.Builder();
      boolean any = false;
      for (String term : words(p[5])) { query.add(new TermQuery(new Term("t", term)), BooleanClause.Occur.MUST); any = true; }
      for (String facet : words(p[6])) { query.add(new TermQuery(new Term("t", facet)), BooleanClause.Occur.FILTER); any = true; }
      for (String excluded : words(p[7])) query.add(new TermQuery(new Term("t", excluded)), BooleanClause.Occur.MUST_NOT);
      // Typo tolerance: the word within its edits, the first letter kept, a swap one edit (the project's rule).
      for (String fuzzy : words(p[8])) {
        int colon = fuzzy.lastIndexOf(':');
        query.add(new FuzzyQuery(new Term("t", fuzzy.substring(0, colon)), Integer.parseInt(fuzzy.substring(colon + 1)), 1, 1024, true), BooleanClause.Occur.MUST);
        any = true;
      }
      long from = Long.parseLong(p[3]), to = Long.parseLong(p[4]);
      if (from != Long.MIN_VALUE || to != Long.MAX_VALUE) { query.add(LongPoint.newRangeQuery("time", from, to), BooleanClause.Occur.FILTER); any = true; }
      if (!any) query.add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER);
      queries.add(new Query_(p[0].equals("1"), Integer.parseInt(p[1]), Integer.parseInt(p[2]), query.build()));
    }

    try (PrintWriter answers = new PrintWriter(Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.UTF_8))) {
      for (Query_ q : queries) {
        int total = searcher.count(q.query());
        StringBuilder ids = new StringBuilder();
        for (long id : page(searcher, reader, q)) ids.append(ids.length() == 0 ? "" : " ").append(id);
        answers.println(total + "\t" + ids);
      }
    }
    System.out.println("answered");
    System.out.flush();

    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String command; (command = commands.readLine()) != null && !command.isEmpty(); ) {
      String[] words = command.split(" ");
      List<Query_> timed = queries;
      if (words[0].equals("repeat")) timed = Collections.nCopies(Integer.parseInt(words[2]), queries.get(Integer.parseInt(words[1])));
      StringBuilder line = new StringBuilder();
      for (Query_ q : timed) {
        long before = threads.getCurrentThreadCpuTime();
        searcher.count(q.query());
        page(searcher, reader, q);
        line.append(line.length() == 0 ? "" : " ").append(threads.getCurrentThreadCpuTime() - before);
      }
      System.out.println(line);
      System.out.flush();
    }
  }

  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    for (String word : text.split(" ")) if (!word.isEmpty()) out.add(word);
    return out;
  }

  /** The ids of the requested page: newest first for RECENT, by Lucene's BM25 score for RELEVANCE. */
  static long[] page(IndexSearcher searcher, IndexReader reader, Query_ q) throws IOException {
    int wanted = q.offset() + q.limit();
    TopDocs top = q.recent() ? searcher.search(q.query(), wanted, NEWEST) : searcher.search(q.query(), wanted);
    int from = Math.min(q.offset(), top.scoreDocs.length);
    long[] ids = new long[top.scoreDocs.length - from];
    List<LeafReaderContext> leaves = reader.leaves();
    for (int i = from; i < top.scoreDocs.length; i++) {
      int doc = top.scoreDocs[i].doc;
      LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
      NumericDocValues values = DocValues.getNumeric(leaf.reader(), "id");
      values.advanceExact(doc - leaf.docBase);
      ids[i - from] = values.longValue();
    }
    return ids;
  }
}
